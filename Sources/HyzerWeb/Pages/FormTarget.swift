import Foundation
import HyzerCore
import HyzerStore

/// Where a create-or-edit form posts and what it says: the same template makes a new
/// record and edits one (with its remove button).
struct FormTarget: Sendable {
    var action: String
    var heading: String
    var submit: String
    /// Set when editing: the form that removes the record.
    var removeAction: String?

    static func edit(_ path: String, _ name: String) -> FormTarget {
        FormTarget(action: path, heading: "Edit \(name)", submit: "Save changes", removeAction: "\(path)/remove")
    }
}
