import Foundation
import HyzerCore
import HyzerStore

/// Sign-up: by invite (maybe claiming an existing player), or open when the club allows it.
struct JoinPage: Sendable {
    var title = "Create your account"
    var invite: String
    var role: String
    /// Set when the invite is for an existing player: only a password is asked for.
    var claimName: String?
    var claimHandle: String?
    var form: FormState
    /// An open sign-up whose name is an imported player's: "is this you?", asked once.
    var lookalike: String?
}
