import Foundation
import HyzerCore
import HyzerStore

/// A record pulled from the cloud that this server keeps unread, as the sync page and the
/// admin page list it. Every text is cut short: a hostile row must not make a page of
/// megabytes.
struct QuarantineRow: Sendable {
    /// The row's key, what the Dismiss form sends.
    var key: String
    var type: String
    var id: String
    var version: String
    var reason: String
    var firstSeen: String
    var lastSeen: String
    /// The start of the payload as text, for an admin deciding whether it matters; only on
    /// the admin page (a player's record holds their email).
    var preview: String?
    var payloadSize: String

    init(_ kept: QuarantinedRecord, preview showsPreview: Bool) {
        key = String(kept.key)
        type = Self.short(kept.record.type, 60)
        id = Self.short(kept.record.id, 80)
        version = Self.short(kept.record.hlc, 80)
        reason = Self.short(kept.record.reason, 300)
        firstSeen = Format.date(kept.firstSeenAt)
        lastSeen = Format.date(kept.lastSeenAt)
        preview = showsPreview ? Self.short(String(decoding: kept.record.payload, as: UTF8.self), Self.previewCharacters) : nil
        payloadSize = kept.payloadBytes < 1024 ? "\(kept.payloadBytes) bytes" : "\(kept.payloadBytes / 1024) KB"
    }

    static func short(_ text: String, _ limit: Int) -> String {
        let cleaned = text.replacingOccurrences(of: "\0", with: "␀")
        return cleaned.count > limit ? cleaned.prefix(limit) + "…" : cleaned
    }

    static let previewCharacters = 160
    /// Rows a page lists, newest first; the count says how many there are.
    static let listed = 50
}
