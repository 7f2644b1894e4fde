import Foundation
import HyzerCore
import HyzerStore

struct SetupPage: Sendable {
    var title = "Create the first admin"
    var token: String
    var form: FormState
}
