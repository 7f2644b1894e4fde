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
    let copies: BackupCopyTarget?
    /// Where the cloud is: an embedded file on this machine's disk is no off-site copy.
    let cloudAddress: CloudAddress

    func view() async throws -> BackupsView {
        var view = BackupsView(
            records: stores.backups.records(), interval: interval, retention: retention, nextAt: await scheduler?.nextAt,
            sync: hasCloud ? await engine.status() : nil, events: try await stores.operational.storeEvents()
        )
        view.location = stores.backups.url.standardizedFileURL.path
        if let copies {
            view.copyFolder = copies.folder.path
            if let last = await copies.last {
                view.copyStatus =
                    last.failure.map { "The last copy failed (\(Format.timestamp(last.at))): \($0)" }
                    ?? "Last copied \(Format.timestamp(last.at)): \(last.file ?? "")."
                view.copyFailed = last.failure != nil
            }
            if Stores.sameDisk(copies.folder, stores.directory) {
                view.diskWarning = "\(copies.folder.path) is on the same disk as the data: choose a folder on another drive."
            }
        } else {
            view.diskWarning =
                "They are on the same disk as the club's data: a disk that dies takes both. Download one now and then to keep elsewhere, or start Hyzer with --backup-copy-to and a folder on another drive (a USB stick, a network share) to copy each backup there."
        }
        if case .sqlite(let path) = cloudAddress, view.sync != nil, Stores.sameDisk(URL(fileURLWithPath: path), stores.directory) {
            view.sync?.onThisDisk = true
        }
        return view
    }

    func restore(_ file: URL) async throws -> RestoreReport {
        let report = try await stores.restore(from: file)
        await engine.syncNow()
        // Everyone else is served again meanwhile; only this request waits for it.
        try await stores.backUpRestoredData()
        return report
    }
}
