import Foundation
import HyzerCore
import HyzerStore

struct SignInPage: Sendable {
    var title = "Sign in"
    var next: String
    var form: FormState
    var canJoin: Bool
}
