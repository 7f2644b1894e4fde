import Foundation
import Hummingbird
import HyzerCore
import HyzerStore
import HyzerSync

/// The sync-status page and its live fragment.
struct SyncStatusView: Sendable {
    struct LogLine: Sendable {
        var at: String
        var time: String
        var operation: String
        var records: Int
        var durationMs: Int
        var result: String
        var ok: Bool
        var message: String?
    }

    struct FailedRecord: Sendable {
        var type: String
        var id: String
        var attempts: Int
        var error: String
        var nextAttempt: String
    }

    var cloud: String
    var account: String
    var accountTitle: String
    var advice: String
    var accountOK: Bool
    var state: String
    var stateMessage: String?
    var lastSyncAt: String?
    var lastSyncText: String
    var pending: Int
    var inFlight: Int
    var failedCount: Int
    var hasInitialSync: Bool
    var initialPulled: Int
    var initialTotal: Int
    var initialPercent: Int
    var log: [LogLine]
    var hasLog: Bool
    var failed: [FailedRecord]
    var hasFailed: Bool
    var quarantinedCount: Int
    var quarantined: [QuarantineRow]
    var hasQuarantined: Bool
    var moreQuarantined = false
    var quarantinedListed = QuarantineRow.listed
    var canSync: Bool

    /// The status with the last 50 log entries, failed and quarantined records, as the page shows them.
    init(status: SyncEngine.Status, stores: Stores) async throws {
        self.init(
            status: status, log: try await stores.operational.recentLog(limit: 50), failed: try await stores.outbox.failedEntries(limit: 50),
            quarantined: status.quarantined > 0 ? try await stores.domain.quarantined(limit: QuarantineRow.listed) : [])
    }

    init(status: SyncEngine.Status, log: [SyncLogEntry], failed: [OutboxEntry], quarantined: [QuarantinedRecord] = [], now: Date = Date()) {
        cloud = status.cloud
        account = status.account.rawValue
        accountTitle = status.account.title
        advice = status.account.advice
        accountOK = status.account == .available
        state = status.state.name
        stateMessage = status.state.message
        lastSyncAt = status.lastSyncAt?.formatted(.iso8601)
        lastSyncText = status.lastSyncAt.map { Self.ago($0, now: now) } ?? "never"
        pending = status.counts.pending
        inFlight = status.counts.inFlight
        failedCount = status.counts.failed
        hasInitialSync = status.initialSync != nil
        initialPulled = status.initialSync?.pulled ?? 0
        initialTotal = status.initialSync?.total ?? 0
        initialPercent = status.initialSync.map { $0.total > 0 ? $0.pulled * 100 / $0.total : 0 } ?? 0
        self.log = log.map {
            LogLine(
                at: $0.at.formatted(.iso8601), time: $0.at.formatted(date: .omitted, time: .standard), operation: $0.operation,
                records: $0.records, durationMs: $0.durationMs, result: $0.result, ok: $0.result == "ok", message: $0.message)
        }
        hasLog = !log.isEmpty
        self.failed = failed.map {
            FailedRecord(
                type: $0.type.rawValue, id: $0.id, attempts: $0.attempts, error: $0.lastError ?? "",
                nextAttempt: $0.nextAttemptAt.map { $0.formatted(date: .omitted, time: .standard) } ?? "now")
        }
        hasFailed = !failed.isEmpty
        quarantinedCount = max(status.quarantined, quarantined.count)
        self.quarantined = quarantined.map { QuarantineRow($0, preview: false) }
        hasQuarantined = !quarantined.isEmpty
        moreQuarantined = quarantinedCount > quarantined.count
        canSync = status.account != .noAccount
    }

    /// "12 s ago", "3 min ago": how long since the last successful sync.
    static func ago(_ date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        if seconds < 60 { return "\(seconds) s ago" }
        if seconds < 3600 { return "\(seconds / 60) min ago" }
        if seconds < 86400 { return "\(seconds / 3600) h ago" }
        return date.formatted(date: .abbreviated, time: .shortened)
    }
}

struct SyncPage: Sendable {
    var title = "Sync"
    var sync: SyncStatusView
}

/// `GET /api/v1/sync`, as the contract names it, plus a few extra keys.
struct SyncResponse: ResponseCodable, Sendable {
    var account: String
    var state: String
    @NullWhenNone var lastSyncAt: Date?
    var pending: Int
    var inFlight: Int
    var failed: Int
    /// Pulled records kept unread (an extra key).
    var quarantined: Int
    @NullWhenNone var message: String?
    var cloud: String
    @NullWhenNone var initialSync: Progress?

    struct Progress: Codable, Sendable {
        var pulled: Int
        var total: Int
    }

    init(_ status: SyncEngine.Status) {
        account = status.account.rawValue
        state = status.state.name
        lastSyncAt = status.lastSyncAt
        pending = status.counts.pending
        inFlight = status.counts.inFlight
        failed = status.counts.failed
        quarantined = status.quarantined
        message = status.state.message
        cloud = status.cloud
        initialSync = status.initialSync.map { Progress(pulled: $0.pulled, total: $0.total) }
    }
}
