import Foundation
import HyzerCore
import HyzerStore
import HyzerSync

/// What the admin page needs of backups: their state, and a restore followed by a sync so
/// that records the cloud has that are newer than the backup come back at once.
struct BackupDesk: Sendable {
    let stores: Stores
    let engine: SyncEngine
    let scheduler: BackupScheduler?
    let interval: Duration?
    let retention: BackupRetention
    let hasCloud: Bool

    func view() async throws -> BackupsView {
        BackupsView(
            records: stores.backups.records(), interval: interval, retention: retention, nextAt: await scheduler?.nextAt,
            sync: hasCloud ? await engine.status() : nil, events: try await stores.operational.storeEvents()
        )
    }

    func restore(_ file: URL) async throws -> RestoreReport {
        let report = try await stores.restore(from: file)
        await engine.syncNow()
        // Everyone else is served again meanwhile; only this request waits for it.
        try await stores.backUpRestoredData()
        return report
    }
}
