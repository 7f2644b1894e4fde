import Foundation
import HyzerCore
import HyzerStore
import Logging
import ServiceLifecycle

/// Makes a backup every interval (counted from the newest one, so a restart does not reset
/// the clock) and prunes the folder by the retention rule after each.
actor BackupScheduler: Service {
    private let stores: Stores
    private let interval: Duration
    private let retention: BackupRetention
    private let logger: Logger
    private let copies: BackupCopyTarget?
    private(set) var nextAt: Date?

    init(stores: Stores, interval: Duration, retention: BackupRetention, logger: Logger, copies: BackupCopyTarget? = nil) {
        self.copies = copies
        self.stores = stores
        self.interval = interval
        self.retention = retention
        self.logger = logger
    }

    /// When the next backup is due: an interval after the newest scheduled or manual one, or
    /// now when there is none.
    static func due(after records: [BackupRecord], interval: Duration, now: Date) -> Date {
        // Uploads and safety copies are not this machine's schedule; a backup dated in the
        // future (a clock set back) must not stop the schedule.
        guard let last = records.first(where: \.isOwnRecoveryPoint)?.createdAt, last <= now else { return now }
        return max(now, last.addingTimeInterval(interval.seconds))
    }

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            let due = Self.due(after: stores.backups.records(), interval: interval, now: Date())
            nextAt = due
            let wait = max(0, due.timeIntervalSinceNow)
            do {
                try await gracefulShutdown(after: .seconds(wait))
            } catch {
                return
            }
            await backUp()
        }
    }

    /// One scheduled backup and the pruning after it. A failure is logged and kept in the
    /// folder (the admin page lists it); the next attempt comes an interval later.
    private func backUp() async {
        do {
            let record = try await stores.createBackup(reason: .scheduled)
            logger.info("Backup made and verified", metadata: ["file": "\(record.id)", "bytes": "\(record.archiveBytes)"])
            await copies?.copy(record, from: stores)
        } catch BackupError.busy {
            logger.debug("Backup skipped: another backup or restore is running")
        } catch BackupError.notReady {
            // Refilling after a recovery: back up as soon as that is done.
            try? await gracefulShutdown(after: .seconds(10))
            return
        } catch {
            logger.error("Scheduled backup failed", metadata: ["error": "\(error)"])
        }
        let deleted = stores.pruneBackups(retention)
        if !deleted.isEmpty { logger.info("Old backups pruned", metadata: ["deleted": "\(deleted.count)"]) }
        // A failure must not retry at once and fill the disk with failed backups.
        if stores.backups.records().first?.isVerified == false {
            try? await gracefulShutdown(after: interval)
        }
    }
}

/// Sleeps, returning early (with an error) when the service group shuts down.
private func gracefulShutdown(after seconds: Duration) async throws {
    try await cancelWhenGracefulShutdown { try await Task.sleep(for: seconds) }
}
