import Foundation
import HyzerCore
import HyzerStore
import Logging
import NIOPosix

/// `--backup-copy-to`: every verified backup is also copied into a folder elsewhere (a
/// mounted drive, a network share), so a dead disk does not take the data and its backups
/// together. Remembers the last copy's outcome for /admin.
actor BackupCopyTarget {
    let folder: URL
    private let logger: Logger
    private(set) var last: (at: Date, file: String?, failure: String?)?

    init(folder: URL, logger: Logger) {
        self.folder = folder
        self.logger = logger
    }

    /// Copies the backup; a failure is logged and shown on /admin, never thrown: the backup
    /// itself was made.
    func copy(_ record: BackupRecord, from stores: Stores) async {
        do {
            // A large archive is copied off the cooperative pool.
            let folder = folder
            let file = try await NIOThreadPool.singleton.runIfActive { try stores.copyBackup(record, to: folder) }
            last = (Date(), file.lastPathComponent, nil)
            logger.info("Backup copied", metadata: ["file": "\(file.path)"])
        } catch {
            last = (Date(), nil, "\(error)")
            logger.error("Backup not copied", metadata: ["folder": "\(folder.path)", "error": "\(error)"])
        }
    }
}
