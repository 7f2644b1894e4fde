import Foundation
import HyzerCore
import HyzerStore

/// A CSV upload: a player list, or a round's results.
struct ImportPage: Sendable {
    var title: String
    var action: String
    var intro: String
    var example: String
    var back: String
    var form: FormState
}
