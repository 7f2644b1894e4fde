import Foundation
import HyzerCore
import HyzerStore

struct InvitesPage: Sendable {
    struct Item: Sendable {
        var id: String
        var role: String
        var player: String
        var created: String
        var status: String
        /// Open, and for a role the viewer could grant: they may revoke it.
        var isOpen: Bool
    }

    var title = "Invites"
    var roles: [Option]
    var players: [Option]
    var link: String?
    var invites: [Item]
    var form: FormState
    /// Where links point, and a warning when phones cannot open it.
    var base: String
    var baseWarning: String?
    /// Imported players nobody signs in as yet, for links made many at once.
    var unclaimed: [Option] = []
    var hasUnclaimed = false
}
