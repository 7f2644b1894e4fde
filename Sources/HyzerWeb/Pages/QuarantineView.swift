import Foundation
import HyzerCore
import HyzerStore

/// A record pulled from the cloud that this server keeps unread, as the sync page and the
/// admin page list it.
struct QuarantineRow: Sendable {
    var type: String
    var id: String
    var version: String
    var reason: String
    var firstSeen: String
    var lastSeen: String
    /// The start of the payload as text, for an admin deciding whether it matters.
    var preview: String

    init(_ kept: QuarantinedRecord) {
        type = kept.record.type
        id = kept.record.id
        version = kept.record.hlc
        reason = kept.record.reason
        firstSeen = Format.date(kept.firstSeenAt)
        lastSeen = Format.date(kept.lastSeenAt)
        let head = kept.record.payload.prefix(Self.previewBytes)
        preview = String(decoding: head, as: UTF8.self) + (kept.record.payload.count > Self.previewBytes ? "…" : "")
    }

    static let previewBytes = 160
    /// Rows a page lists; the count says how many there are.
    static let listed = 50
}
