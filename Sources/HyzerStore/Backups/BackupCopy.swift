import Foundation
import HyzerCore

extension Stores {
    /// Copies a verified backup's archive into `folder` (another disk, a mounted drive), under
    /// its own name: written as a partial file, checked against the archive's SHA-256, then
    /// renamed, so the folder never holds half a backup or a corrupt one.
    public func copyBackup(_ record: BackupRecord, to folder: URL) throws -> URL {
        let files = FileManager.default
        try files.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent(record.id)
        let partial = folder.appendingPathComponent(".\(record.id).partial")
        try? files.removeItem(at: partial)  // quiet: an earlier partial, if any; the copy below fails loudly
        try files.copyItem(at: backups.archive(record.id), to: partial)
        guard try BackupArchive.sha256(of: partial) == record.archiveSHA256 else {
            try? files.removeItem(at: partial)  // quiet: the mismatch is thrown; a partial is never offered
            throw BackupError.damaged("the copy in \(folder.path) does not match the backup it was copied from")
        }
        try? files.removeItem(at: target)  // quiet: an older copy of the same backup; the move below fails loudly
        try files.moveItem(at: partial, to: target)
        return target
    }

    /// Whether two paths are on the same file system (device): a disk that dies takes both.
    public static func sameDisk(_ one: URL, _ other: URL) -> Bool {
        func device(_ url: URL) -> UInt64? {
            var status = stat()
            // The nearest existing folder: a copy folder may not be made yet.
            var path = url.standardizedFileURL
            while stat(path.path, &status) != 0 {
                guard path.path != "/" else { return nil }
                path = path.deletingLastPathComponent()
            }
            return UInt64(status.st_dev)
        }
        guard let first = device(one), let second = device(other) else { return true }
        return first == second
    }
}
