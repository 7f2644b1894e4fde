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
    public func createBackup(reason: BackupReason = .manual, now: Date = Date(),
                             progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }) async throws -> BackupRecord {
        try begin(.backingUp)
        defer { end() }
        return try await makeBackup(reason: reason, now: now, progress: progress)
    }

    /// `domainCopy`: a copy of domain.sqlite already made (a restore takes it inside the same
    /// write access that replaces the data); otherwise an online copy is taken here.
    func makeBackup(reason: BackupReason, now exact: Date, domainCopy: URL? = nil,
                    progress: @escaping @Sendable (BackupProgress) -> Void) async throws -> BackupRecord {
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
                let made = BackupRecord(id: name, createdAt: now, archiveBytes: try BackupArchive.size(of: archive),
                                        archiveSHA256: try BackupArchive.sha256(of: archive), status: .verified, manifest: manifest)
                return try folder.verifyAndRecord(made, progress: progress)
            }
        } catch let error as BackupError {
            throw error
        } catch {
            // Kept with its reason, never offered for restore.
            try? folder.save(BackupRecord(id: name, createdAt: now, archiveBytes: (try? BackupArchive.size(of: archive)) ?? 0,
                                          archiveSHA256: "", status: .failed, failure: "\(error)", manifest: nil))
            throw error
        }
    }

    /// Verifies a backup of this folder again (by name) or any backup file (by path).
    public func verifyBackup(_ file: URL, progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }) async throws -> BackupManifest {
        try await backups.verify(file, progress: progress)
    }

    /// Takes an uploaded or copied-in backup file into the backups folder, verified: it is
    /// then listed and restorable like any other, marked as imported. The file is moved.
    public func importBackup(_ file: URL, progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }) async throws -> BackupRecord {
        let folder = backups
        let name = folder.newName(at: Date())
        let archive = folder.archive(name)
        try FileManager.default.moveItem(at: file, to: archive)
        return try await NIOThreadPool.singleton.runIfActive {
            let record = BackupRecord(id: name, createdAt: Date(), archiveBytes: try BackupArchive.size(of: archive),
                                      archiveSHA256: try BackupArchive.sha256(of: archive), status: .verified, manifest: nil, imported: true)
            let checked = try folder.verifyAndRecord(record, progress: progress)
            // Checked as a restore would check it, so that a verified upload is one that restores.
            let work = try folder.workFolder()
            defer { try? FileManager.default.removeItem(at: work) }
            do {
                _ = try Self.prepareRestore(archive, recorded: checked, work: work)
            } catch {
                var failed = checked
                failed.status = .failed
                failed.failure = (error as? BackupError).map { if case .damaged(let reason) = $0 { reason } else { $0.description } } ?? "\(error)"
                try? folder.save(failed)
                throw error
            }
            return checked
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
    public func restore(from file: URL, now: Date = Date(),
                        progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }) async throws -> RestoreReport {
        try begin(.preparingRestore)
        defer { end() }
        let folder = backups
        let recorded = folder.record(at: file)
        if let recorded, !recorded.isVerified { throw BackupError.notRestorable(recorded.id) }
        let work = try folder.workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let (copy, manifest) = try await NIOThreadPool.singleton.runIfActive {
            let copy = try Self.prepareRestore(file, recorded: recorded, work: work, progress: progress)
            let manifest = try BackupCoding.decoder.decode(BackupManifest.self, from: Data(contentsOf: work.appendingPathComponent(BackupArchive.manifestName)))
            return (copy, manifest)
        }
        activity.withLock { $0 = .restoring(since: now) }
        progress(BackupProgress(step: "replace data", done: 0, total: 1))
        let current = work.appendingPathComponent("current.sqlite")
        try await domain.replaceContents(with: copy, savingCurrentTo: current)
        try await operational.rebase(on: try await domain.recordVersions())
        activity.withLock { $0 = .backingUp }
        progress(BackupProgress(step: "safety backup", done: 0, total: 1))
        let safety: BackupRecord
        do {
            safety = try await makeBackup(reason: .safety, now: now, domainCopy: current, progress: { _ in })
        } catch {
            // The data before the restore must not vanish with a failed archive.
            let kept = folder.url.appendingPathComponent("before-restore-\(Int(now.timeIntervalSince1970)).sqlite")
            try? FileManager.default.moveItem(at: current, to: kept)
            throw BackupError.damaged("the restore is done, but the safety backup could not be written (\(error)); the data before it is kept as \(kept.path)")
        }
        try await operational.note(StoreEvent(at: now, kind: .restored, detail:
            "Restored the backup of \(ISO8601DateFormatter().string(from: manifest.createdAt)) (\(manifest.recordCounts.summary)); the data before it is in the safety backup \(safety.id)."))
        progress(BackupProgress(step: "restored", done: 1, total: 1))
        return RestoreReport(manifest: manifest, safetyBackup: safety)
    }

    /// A backup of the data just restored: what a later recovery starts from (the backups
    /// made before the restore hold the data it replaced).
    @discardableResult
    public func backUpRestoredData(progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }) async throws -> BackupRecord {
        try await createBackup(reason: .restored, progress: progress)
    }

    /// Verifies an archive into `work`, migrates its domain copy to this code's schema and
    /// checks that the schema is exactly the one this code writes (a crafted file must not
    /// bring its own triggers or views). Returns the copy, ready to replace the live data.
    static func prepareRestore(_ file: URL, recorded: BackupRecord?, work: URL, progress: (BackupProgress) -> Void = { _ in }) throws -> URL {
        if let recorded {
            progress(BackupProgress(step: "checksum", done: 0, total: recorded.archiveBytes))
            guard try BackupArchive.sha256(of: file) == recorded.archiveSHA256 else {
                throw BackupError.damaged("the archive does not match the SHA-256 recorded when it was made")
            }
        }
        _ = try BackupArchive.verify(file, into: work, progress: progress)
        let copy = work.appendingPathComponent(domainFileName)
        let queue = try DatabaseQueue(path: copy.path, configuration: StoreFile.configuration(durable: true))
        defer { try? queue.close() }
        try StoreFile.refuseNewer(queue, migrator: DomainMigrations.migrator, file: "The backup's \(domainFileName)")
        try DomainMigrations.migrator.migrate(queue)
        let found = try queue.read(StoreFile.schema)
        let expected = try StoreFile.expectedSchema(DomainMigrations.migrator)
        guard found == expected else {
            let extra = Set(found).subtracting(expected).map { $0.split(separator: " ").prefix(2).joined(separator: " ") }.sorted()
            let missing = Set(expected).subtracting(found).map { $0.split(separator: " ").prefix(2).joined(separator: " ") }.sorted()
            throw BackupError.damaged("its database schema is not the one Hyzer writes (unexpected: \(extra.joined(separator: ", ")); missing: \(missing.joined(separator: ", ")))")
        }
        return copy
    }

    /// `hyzer backup restore` on a data directory whose domain.sqlite cannot be opened: the
    /// damaged file is moved aside, the backup's copy put in its place, and the directory
    /// opened as usual.
    public static func restoreOverDamaged(directory: URL, from file: URL,
                                          progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }) async throws -> (Stores, BackupManifest) {
        let folder = BackupFolder(dataDirectory: directory)
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let work = try folder.workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let recorded = folder.record(at: file)
        if let recorded, !recorded.isVerified { throw BackupError.notRestorable(recorded.id) }
        let manifest = try await NIOThreadPool.singleton.runIfActive {
            let copy = try prepareRestore(file, recorded: recorded, work: work, progress: progress)
            let domainFile = directory.appendingPathComponent(domainFileName)
            if FileManager.default.fileExists(atPath: domainFile.path) { _ = try moveAside(domainFile) }
            try FileManager.default.moveItem(at: copy, to: domainFile)
            return try BackupCoding.decoder.decode(BackupManifest.self, from: Data(contentsOf: work.appendingPathComponent(BackupArchive.manifestName)))
        }
        let stores = try await Stores(directory: directory)
        try await stores.operational.rebase(on: try await stores.domain.recordVersions())
        try await stores.operational.note(StoreEvent(kind: .restored, detail:
            "Restored the backup of \(ISO8601DateFormatter().string(from: manifest.createdAt)) (\(manifest.recordCounts.summary)) over a damaged domain.sqlite, which was moved aside."))
        return (stores, manifest)
    }
}

extension BackupFolder {
    /// Checks an archive against what was recorded when it was made (its SHA-256), then
    /// opens it and checks every copy. Saves the outcome in the sidecar.
    func verifyAndRecord(_ recorded: BackupRecord, progress: (BackupProgress) -> Void) throws -> BackupRecord {
        var record = recorded
        let work = try workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        do {
            let archive = archive(record.id)
            progress(BackupProgress(step: "checksum", done: 0, total: record.archiveBytes))
            guard FileManager.default.fileExists(atPath: archive.path) else { throw BackupError.damaged("the archive file is missing") }
            guard try BackupArchive.sha256(of: archive) == record.archiveSHA256 else {
                throw BackupError.damaged("the archive does not match the SHA-256 recorded when it was made")
            }
            let manifest = try BackupArchive.verify(archive, into: work, progress: progress)
            if let expected = record.manifest, expected != manifest { throw BackupError.damaged("its manifest differs from the one recorded") }
            record.manifest = manifest
            record.status = .verified
            record.failure = nil
            record.verifiedAt = Date()
            try save(record)
            return record
        } catch let error as BackupError {
            record.status = .failed
            if case .damaged(let reason) = error { record.failure = reason } else { record.failure = error.description }
            record.verifiedAt = Date()
            try? save(record)
            throw error
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
            return RecordCounts(players: try count("players"), courses: try count("courses"), rounds: try count("rounds"), scoreEvents: try count("score_events"))
        }
    }
}
