import Foundation
import GRDB
import HyzerCore

/// What was done on start about a damaged `domain.sqlite`.
public struct DomainRecovery: Sendable, Equatable, CustomStringConvertible {
    /// Where the damaged file was moved (kept, never deleted).
    public var damagedFile: URL
    /// What SQLite said about it.
    public var reason: String
    /// The verified backup it was restored from, if there was one.
    public var backup: BackupRecord?
    /// True when records must come back from the cloud before serving: everything pushed
    /// since the backup, or everything when there was no backup.
    public var needsCloudRefill: Bool

    public var description: String {
        let source = backup.map { "restored from the verified backup \($0.id) (\($0.manifest?.summary ?? "no manifest"))" } ?? "started empty"
        let refill =
            needsCloudRefill
            ? (backup == nil ? ", then refilled from the cloud alone" : ", then refilled from the cloud (records pushed since the backup)")
            : "; with no cloud, changes made after that backup could not be recovered"
        return "domain.sqlite was damaged (\(reason)) and moved aside as \(damagedFile.lastPathComponent); it was \(source)\(refill)."
    }
}

extension Stores {
    /// Opens `domain.sqlite`, checking it first. A damaged one is moved aside and replaced by
    /// the newest verified backup, or by an empty file when only the cloud can refill it;
    /// with neither, starting is refused with what to do.
    static func openDomain(
        in directory: URL, backups: BackupFolder, cloudConfigured: Bool, mayRepair: Bool,
        open: (URL) throws -> DomainStore
    ) async throws -> (DomainStore, DomainRecovery?) {
        let file = directory.appendingPathComponent(domainFileName)
        let reason: String
        do {
            let store = try open(file)
            try store.quickCheck()
            return (store, nil)
        } catch  where StoreFile.isDamage(error) {
            reason = (error as? DatabaseError)?.message ?? "\(error)"
        }
        guard mayRepair else {
            throw StoreError.damaged(
                "\(file.path) is damaged (\(reason)); start the server (with this command stopped) to recover it, or run `hyzer backup restore FILE` while the server is stopped"
            )
        }
        let newest = backups.newestRecoveryPoint()
        guard newest != nil || cloudConfigured else {
            throw StoreError.unrecoverable(
                """
                \(file.path) is damaged (\(reason)), and there is neither a verified backup in \(backups.url.path) nor a cloud to refill it from.
                Nothing was changed. To recover: restore a backup file with `hyzer backup restore FILE --data-dir \(directory.path)`, \
                or start with --cloud pointing at the club's cloud database, which then refills this machine.
                """)
        }
        let aside = try moveAside(file)
        if let newest {
            let work = try backups.workFolder()
            defer { try? FileManager.default.removeItem(at: work) }
            let (copy, _) = try await backups.prepareRestore(backups.archive(newest.id), work: work, progress: { _ in })
            try putInPlace(copy, in: directory)
        }
        return (try open(file), DomainRecovery(damagedFile: aside, reason: reason, backup: newest, needsCloudRefill: cloudConfigured))
    }
}
