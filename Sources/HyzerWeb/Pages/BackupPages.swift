import Foundation
import HyzerCore
import HyzerStore
import HyzerSync

/// The backups section of `/admin`: the newest verified backup and whether it is too old,
/// the next scheduled one, every backup with download and restore, failed ones with their
/// reason, what the cloud does not have yet, and what happened to the stores.
struct BackupsView: Sendable {
    struct Item: Sendable {
        var id: String
        var created: String
        var age: String
        var size: String
        var counts: String
        var reason: String
        var ratio: String
        var failure: String

        init(_ record: BackupRecord, now: Date) {
            id = record.id
            created = Display.date(record.createdAt)
            age = Format.age(now.timeIntervalSince(record.createdAt))
            size = Format.bytes(record.archiveBytes)
            counts = record.manifest?.recordCounts.summary ?? "—"
            reason = record.manifest?.reason.rawValue ?? ""
            ratio = record.compressionRatio.map { String(format: "%.1f×", $0) } ?? "—"
            failure = record.failure ?? ""
        }
    }

    struct Event: Sendable {
        var at: String
        var kind: String
        var detail: String
    }

    var last: Item?
    var stale: Bool
    var next: String
    var items: [Item]
    var hasItems: Bool
    var failed: [Item]
    var hasFailed: Bool
    var unsynced: Int
    var allSynced: Bool
    var cloud: String
    var lastSync: String
    var events: [Event]
    var hasEvents: Bool
    var interval: String

    init(records: [BackupRecord], interval: Duration?, nextAt: Date?, sync: SyncEngine.Status, events: [StoreEvent], now: Date = Date()) {
        let verified = records.filter(\.isVerified)
        last = verified.first.map { Item($0, now: now) }
        if let newest = verified.first, let interval {
            stale = now.timeIntervalSince(newest.createdAt) > 2 * interval.seconds
        } else {
            stale = verified.isEmpty
        }
        next = interval == nil ? "not scheduled (--backup-interval off)" : nextAt.map { $0 <= now ? "now" : "in \(Format.age($0.timeIntervalSince(now)))" } ?? "soon"
        self.interval = interval.map { Format.age($0.seconds) } ?? "off"
        items = verified.map { Item($0, now: now) }
        hasItems = !items.isEmpty
        failed = records.filter { !$0.isVerified }.map { Item($0, now: now) }
        hasFailed = !failed.isEmpty
        unsynced = sync.counts.pending + sync.counts.inFlight + sync.counts.failed
        allSynced = unsynced == 0
        cloud = sync.cloud
        lastSync = sync.lastSyncAt.map { "\(Format.age(now.timeIntervalSince($0))) ago" } ?? "never on this run"
        self.events = events.map { Event(at: Display.date($0.at), kind: $0.kind.rawValue, detail: $0.detail) }
        hasEvents = !events.isEmpty
    }
}

struct RestoreConfirmPage: Sendable {
    var title = "Restore a backup"
    var backup: BackupsView.Item
    var current: String
    var error: String?
}
