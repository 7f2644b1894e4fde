import Foundation
import HyzerCore
import HyzerStore

/// Invite links made many at once: one card per player with the link and its QR code, to
/// print and hand out or to copy into messages.
struct InviteSheetPage: Sendable {
    struct Card: Sendable {
        var displayName: String
        var handle: String
        var link: String
        var code: String
    }

    var title = "Invite sheet"
    var cards: [Card]
    var count: Int
    /// "Name: link" lines, to paste into a message or a mail merge.
    var lines: String
    var baseWarning: String?
}
