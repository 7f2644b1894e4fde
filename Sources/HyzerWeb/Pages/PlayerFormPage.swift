import Foundation
import HyzerCore
import HyzerStore

struct PlayerFormPage: Sendable {
    var title = "New player"
    var form: FormState
    var roles: [Option]
    var target = FormTarget(action: "/players", heading: "New player", submit: "Add player")
    var isEdit = false
    /// The club's divisions, suggested for the usual division.
    var divisionChoices: [String] = []

    init(form: FormState, creator: Role) {
        self.form = form
        let chosen = form.values["role"] ?? Role.athlete.rawValue
        roles = creator.grantable.map { Option(value: $0.rawValue, label: $0.rawValue.capitalized, selected: $0.rawValue == chosen) }
    }
}
