import Foundation
import HyzerCore
import HyzerStore

struct CourseFormPage: Sendable {
    /// A row of the edit page's table of holes.
    struct HoleRow: Sendable {
        var number: Int
        var par: String
        var distance: String
    }

    var title = "New course"
    var form: FormState
    var target = FormTarget(action: "/courses", heading: "New course", submit: "Create course")
    var isEdit = false
    /// The edit page's holes (the new-course form takes lists instead).
    var holes: [HoleRow] = []
}
