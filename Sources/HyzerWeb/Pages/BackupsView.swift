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
        /// For an upload: when it arrived (`created` is when its data was backed up).
        var uploaded: String?
        /// An upload's time and reason are what its file says: nothing can check them.
        var claimed: Bool
        /// The device whose data it is (checked against the file's own sync.sqlite).
        var device: String
        var schema: String

        init(_ record: BackupRecord, now: Date) {
            id = record.id
            let made = record.manifest?.createdAt ?? record.createdAt
            created = Format.timestamp(made)
            age = Format.age(now.timeIntervalSince(made))
            size = Format.bytes(record.archiveBytes)
            counts = record.manifest?.recordCounts.summary ?? "—"
            reason = record.imported == true ? "uploaded" : record.manifest?.reason.rawValue ?? ""
            uploaded = record.imported == true ? Format.timestamp(record.createdAt) : nil
            claimed = record.imported == true
            device = record.manifest.map { Format.id($0.deviceID) } ?? "—"
            schema = record.manifest?.file("domain.sqlite")?.schema ?? "—"
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
    /// nil without a cloud: this machine's backups are the only copy.
    var sync: Sync?
    var events: [Event]
    var hasEvents: Bool
    /// A recovery or rebuild in the last week, shown at the top of the section.
    var recentRecovery: Event?
    var interval: String
    var retention: String
    /// Where the backups are, and whether (and how lately) each is also copied elsewhere.
    var location = ""
    var copyFolder: String?
    var copyStatus: String?
    var copyFailed = false
    /// Said when nothing keeps a copy off this machine's disk.
    var diskWarning: String?

    struct Sync: Sendable {
        var unsynced: Int
        var allSynced: Bool
        var cloud: String
        var lastSync: String
        /// The cloud is a file on this machine's own disk: a second copy, not an off-site one.
        var onThisDisk = false
    }

    init(
        records: [BackupRecord], interval: Duration?, retention: BackupRetention, nextAt: Date?, sync: SyncEngine.Status?, events: [StoreEvent],
        now: Date = Date()
    ) {
        let verified = records.filter(\.isVerified)
        last = records.first(where: \.isOwnRecoveryPoint).map { Item($0, now: now) }
        if let newest = records.first(where: \.isOwnRecoveryPoint), let interval {
            stale = now.timeIntervalSince(newest.createdAt) > 2 * interval.seconds
        } else {
            stale = verified.isEmpty
        }
        next =
            interval == nil
            ? "not scheduled (--backup-interval off)" : nextAt.map { $0 <= now ? "now" : "in \(Format.age($0.timeIntervalSince(now)))" } ?? "soon"
        self.interval = interval.map { Format.age($0.seconds) } ?? "off"
        items = verified.map { Item($0, now: now) }
        hasItems = !items.isEmpty
        failed = records.filter { !$0.isVerified }.map { Item($0, now: now) }
        hasFailed = !failed.isEmpty
        self.sync = sync.map { status in
            let unsynced = status.counts.pending + status.counts.inFlight + status.counts.failed
            return Sync(
                unsynced: unsynced, allSynced: unsynced == 0, cloud: status.cloud,
                lastSync: status.lastSyncAt.map { "\(Format.age(now.timeIntervalSince($0))) ago" } ?? "not yet since this start")
        }
        self.retention = "the newest \(retention.recent) plus one a day for \(retention.days) days"
        self.events = events.map { Event(at: Format.timestamp($0.at), kind: $0.kind.rawValue, detail: $0.detail) }
        hasEvents = !events.isEmpty
        recentRecovery = events.first { $0.kind != .restored && now.timeIntervalSince($0.at) < 7 * 86_400 }
            .map { Event(at: Format.timestamp($0.at), kind: $0.kind.rawValue, detail: $0.detail) }
    }
}
