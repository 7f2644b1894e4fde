import Foundation
import GRDB
import HyzerCore
import NIOPosix

public struct RestoreReport: Sendable {
    /// What was restored.
    public var manifest: BackupManifest
    /// The data as it was the moment before the restore replaced it.
    public var safetyBackup: BackupRecord
}

extension Stores {
    // MARK: Backups

    /// Makes a backup of both files while everything keeps serving, then verifies it.
    /// A backup that fails verification is kept, marked failed with its reason, and thrown
    /// as `BackupError.damaged`.
    public func createBackup(
        reason: BackupReason = .manual, now: Date = Date(),
        progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }
    ) async throws -> BackupRecord {
        try begin(.backingUp)
        defer { end() }
        return try await makeBackup(reason: reason, now: now, progress: progress)
    }

    /// `domainCopy`: a copy of domain.sqlite already made (a restore takes it inside the same
    /// write access that replaces the data); otherwise an online copy is taken here.
    func makeBackup(
        reason: BackupReason, now exact: Date, domainCopy: URL? = nil,
        progress: @escaping @Sendable (BackupProgress) -> Void
    ) async throws -> BackupRecord {
        // A store being refilled from the cloud is not the club's data yet.
        guard !isRefilling else { throw BackupError.notReady }
        // Milliseconds, as the JSON keeps them: a record read back equals the one written.
        let now = Date(timeIntervalSince1970: (exact.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        let folder = backups
        let name = folder.newName(at: now)
        let archive = folder.archive(name)
        let work = try folder.workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        do {
            progress(BackupProgress(step: "copy \(Self.domainFileName)", done: 0, total: 2))
            if let domainCopy {
                try FileManager.default.copyItem(at: domainCopy, to: work.appendingPathComponent(Self.domainFileName))
            } else {
                try await domain.pool.onlineCopy(to: work.appendingPathComponent(Self.domainFileName))
            }
            progress(BackupProgress(step: "copy \(Self.operationalFileName)", done: 1, total: 2))
            try await operational.pool.onlineCopy(to: work.appendingPathComponent(Self.operationalFileName))
            let deviceID = domain.deviceID
            return try await NIOThreadPool.singleton.runIfActive {
                let files = try BackupArchive.databaseNames.map { try BackupArchive.describe(work.appendingPathComponent($0), name: $0) }
                let manifest = BackupManifest(createdAt: now, deviceID: deviceID, reason: reason, files: files)
                let partial = work.appendingPathComponent(name)
                try BackupArchive.write(manifest, from: work, to: partial, progress: progress)
                try FileManager.default.moveItem(at: partial, to: archive)
                let made = BackupRecord(
                    id: name, createdAt: now, archiveBytes: try BackupArchive.size(of: archive),
                    archiveSHA256: try BackupArchive.sha256(of: archive), status: .verified, manifest: manifest)
                return try folder.verifyAndRecord(made, progress: progress)
            }
        } catch let error as BackupError {
            throw error
        } catch {
            // Kept with its reason, never offered for restore.
            // quiet: the backup's own error is thrown below; its record is best effort.
            try? folder.save(
                BackupRecord(
                    // quiet: a size unknown is 0 on a record of a failed backup.
                    id: name, createdAt: now, archiveBytes: (try? BackupArchive.size(of: archive)) ?? 0,
                    archiveSHA256: "", status: .failed, failure: "\(error)", manifest: nil))
            throw error
        }
    }

    /// Takes an uploaded or copied-in backup file into the backups folder, verified: it is
    /// then listed and restorable like any other, marked as imported. The file is moved.
    public func importBackup(_ file: URL, progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }) async throws -> BackupRecord {
        let folder = backups
        let name = folder.newName(at: Date())
        let archive = folder.archive(name)
        try FileManager.default.moveItem(at: file, to: archive)
        return try await NIOThreadPool.singleton.runIfActive {
            let record = BackupRecord(
                id: name, createdAt: Date(), archiveBytes: try BackupArchive.size(of: archive),
                archiveSHA256: try BackupArchive.sha256(of: archive), status: .verified, manifest: nil, imported: true)
            // Checked as a restore checks it: a verified upload is one that restores.
            return try folder.verifyAndRecord(record, restorable: true, progress: progress)
        }
    }

    /// Deletes what the retention rule does not keep.
    @discardableResult
    public func pruneBackups(_ retention: BackupRetention, now: Date = Date()) -> [String] {
        backups.prune(retention, now: now)
    }

    // MARK: Restore

    /// Replaces the club's data with a backup's, while the server runs. The backup is
    /// verified, checked and migrated first (the site keeps serving). Then requests are
    /// answered "restoring", and in one exclusive write access the current data is copied
    /// (the safety backup: every write that committed is in it) and replaced. The outbox and
    /// change tokens are rebased so that records the cloud has that are newer than the backup
    /// come back by the next pull, and records only the backup has go up. Sessions and API
    /// tokens belong to this machine and are kept. Callers then call `backUpRestoredData()`,
    /// once the site serves again.
    public func restore(
        from file: URL, now: Date = Date(),
        progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }
    ) async throws -> RestoreReport {
        try begin(.preparingRestore)
        defer { end() }
        let folder = backups
        let work = try folder.workFolder()
        // Left in place when it holds the only copy of the data before the restore (below).
        var keepWork = false
        defer { if !keepWork { try? FileManager.default.removeItem(at: work) } }
        let (copy, manifest) = try await folder.prepareRestore(file, work: work, progress: progress)
        activity.withLock { $0 = .restoring(since: now) }
        progress(BackupProgress(step: "replace data", done: 0, total: 1))
        let current = work.appendingPathComponent("current.sqlite")
        try await domain.replaceContents(with: copy, savingCurrentTo: current)
        domain.boards.removeAll()
        domain.roundDigests.removeAll()
        domain.changes.bump()
        domain.playerChanges.bump()
        domain.setupChanges.bump()
        domain.settingsChanges.bump()
        try await Self.rebase(operational, domain, on: try await domain.recordVersions())
        activity.withLock { $0 = .backingUp }
        progress(BackupProgress(step: "safety backup", done: 0, total: 1))
        let safety: BackupRecord
        do {
            safety = try await makeBackup(reason: .safety, now: now, domainCopy: current, progress: { _ in })
        } catch {
            // The data before the restore must not vanish with a failed archive.
            var kept = folder.url.appendingPathComponent("before-restore-\(Int(now.timeIntervalSince1970)).sqlite")
            do {
                try FileManager.default.moveItem(at: current, to: kept)
            } catch {
                // Not moved: it stays where it is, and so does the folder around it.
                keepWork = true
                kept = current
            }
            throw BackupError.damaged(
                "the restore is done, but the safety backup could not be written (\(error)); the data before it is kept as \(kept.path)")
        }
        try await operational.note(
            StoreEvent(
                at: now, kind: .restored,
                detail:
                    "Restored the backup of \(manifest.summary); the data before it is in the safety backup \(safety.id)."))
        progress(BackupProgress(step: "restored", done: 1, total: 1))
        return RestoreReport(manifest: manifest, safetyBackup: safety)
    }

    /// A backup of the data just restored: what a later recovery starts from (the backups
    /// made before the restore hold the data it replaced).
    @discardableResult
    public func backUpRestoredData(progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }) async throws -> BackupRecord {
        try await createBackup(reason: .restored, progress: progress)
    }

    /// Migrates a verified domain copy to this code's schema and checks that the schema is
    /// exactly the one this code writes (a crafted file must not bring its own triggers or
    /// views). Refuses a schema newer than the code.
    static func migrateAndCheck(_ copy: URL) throws {
        let queue = try DatabaseQueue(path: copy.path, configuration: StoreFile.configuration(durable: true))
        defer { try? queue.close() }
        try StoreFile.refuseNewer(queue, migrator: DomainMigrations.migrator, file: "The backup's \(domainFileName)")
        try DomainMigrations.migrator.migrate(queue)
        let found = try queue.read(StoreFile.schema)
        let expected = try StoreFile.expectedSchema(DomainMigrations.migrator)
        guard found == expected else {
            func names(_ entries: Set<String>) -> String {
                entries.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }.sorted().joined(separator: ", ")
            }
            throw BackupError.damaged(
                "its database schema is not the one Hyzer writes (unexpected: \(names(Set(found).subtracting(expected))); missing: \(names(Set(expected).subtracting(found))))"
            )
        }
    }

    /// `hyzer backup restore` on a data directory whose domain.sqlite cannot be opened: the
    /// damaged file is moved aside, the backup's copy put in its place, and the directory
    /// opened as usual.
    public static func restoreOverDamaged(
        directory: URL, from file: URL,
        progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }
    ) async throws -> (Stores, BackupManifest) {
        let folder = BackupFolder(dataDirectory: directory)
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let work = try folder.workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let (copy, manifest) = try await folder.prepareRestore(file, work: work, progress: progress)
        try putInPlace(copy, in: directory)
        let stores = try await Stores(directory: directory)
        try await Stores.rebase(stores.operational, stores.domain, on: try await stores.domain.recordVersions())
        try await stores.operational.note(
            StoreEvent(kind: .restored, detail: "Restored the backup of \(manifest.summary) over a damaged domain.sqlite, which was moved aside."))
        return (stores, manifest)
    }

    /// Puts a prepared copy where domain.sqlite belongs; a file already there is moved aside.
    static func putInPlace(_ copy: URL, in directory: URL) throws {
        let domainFile = directory.appendingPathComponent(domainFileName)
        if FileManager.default.fileExists(atPath: domainFile.path) { _ = try moveAside(domainFile) }
        try FileManager.default.moveItem(at: copy, to: domainFile)
    }
}

extension BackupFolder {
    /// Checks an archive against what was recorded when it was made (its SHA-256), then
    /// opens it and checks every copy; `restorable` also checks it as a restore would.
    /// Saves the outcome in the sidecar: a failure is kept with its reason.
    func verifyAndRecord(_ recorded: BackupRecord, restorable: Bool = false, progress: (BackupProgress) -> Void) throws -> BackupRecord {
        var record = recorded
        let work = try workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        do {
            let archive = archive(record.id)
            guard FileManager.default.fileExists(atPath: archive.path) else { throw BackupError.damaged("the archive file is missing") }
            let manifest = try Self.open(archive, recorded: record, into: work, progress: progress)
            if let expected = record.manifest, expected != manifest { throw BackupError.damaged("its manifest differs from the one recorded") }
            if restorable { try Stores.migrateAndCheck(work.appendingPathComponent(Stores.domainFileName)) }
            record.manifest = manifest
            record.status = .verified
            record.failure = nil
            record.verifiedAt = Date()
            try save(record)
            return record
        } catch {
            record.status = .failed
            record.failure = (error as? BackupError)?.reason ?? "\(error)"
            record.verifiedAt = Date()
            // quiet: the verification's own error is thrown; the record saying so is best effort.
            try? save(record)
            throw error
        }
    }

    /// The recorded digest first (when there is a record), then the archive's own checks.
    static func open(_ archive: URL, recorded: BackupRecord?, into work: URL, progress: (BackupProgress) -> Void) throws -> BackupManifest {
        if let recorded {
            progress(BackupProgress(step: "checksum", done: 0, total: recorded.archiveBytes))
            guard try BackupArchive.sha256(of: archive) == recorded.archiveSHA256 else {
                throw BackupError.damaged("the archive does not match the SHA-256 recorded when it was made")
            }
        }
        return try BackupArchive.verify(archive, into: work, progress: progress)
    }

    /// Opens a backup for a restore (one of this folder's, which must be verified, or any
    /// file) into `work`: verified, migrated and schema-checked. Returns the domain copy,
    /// ready to replace the live data, and the manifest.
    func prepareRestore(_ file: URL, work: URL, progress: @escaping @Sendable (BackupProgress) -> Void) async throws -> (URL, BackupManifest) {
        let recorded = record(at: file)
        if let recorded, !recorded.isVerified { throw BackupError.notRestorable(recorded.id) }
        return try await NIOThreadPool.singleton.runIfActive {
            let manifest = try Self.open(file, recorded: recorded, into: work, progress: progress)
            let copy = work.appendingPathComponent(Stores.domainFileName)
            try Stores.migrateAndCheck(copy)
            return (copy, manifest)
        }
    }

    /// Verifies a backup of this folder again (by name) or any backup file (by path). Needs
    /// no database: safe beside a running server.
    public func verify(_ file: URL, progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }) async throws -> BackupManifest {
        if let record = record(at: file) {
            return try await NIOThreadPool.singleton.runIfActive {
                guard let manifest = try verifyAndRecord(record, progress: progress).manifest else { throw BackupError.damaged("it has no manifest") }
                return manifest
            }
        }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let work = try workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        return try await NIOThreadPool.singleton.runIfActive { try BackupArchive.verify(file, into: work, progress: progress) }
    }
}

extension Stores {
    /// The club's records here now, counted as a backup's manifest counts them.
    public func currentCounts() async throws -> RecordCounts {
        try await domain.pool.read { db in
            func count(_ table: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
            return RecordCounts(
                players: try count("players"), courses: try count("courses"), rounds: try count("rounds"), scoreEvents: try count("score_events"))
        }
    }
}
