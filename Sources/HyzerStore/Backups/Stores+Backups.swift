import Foundation
import GRDB
import HyzerCore
import NIOPosix

public struct RestoreReport: Sendable {
    /// What was restored.
    public var manifest: BackupManifest
    /// The backup taken of the data as it was just before.
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

    func makeBackup(reason: BackupReason, now exact: Date, progress: @escaping @Sendable (BackupProgress) -> Void) async throws -> BackupRecord {
        // Milliseconds, as the JSON keeps them: a record read back equals the one written.
        let now = Date(timeIntervalSince1970: (exact.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        let folder = backups
        let name = folder.newName(at: now)
        let archive = folder.archive(name)
        let work = try folder.workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        do {
            progress(BackupProgress(step: "copy \(Self.domainFileName)", done: 0, total: 2))
            try await domain.pool.onlineCopy(to: work.appendingPathComponent(Self.domainFileName))
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
                return try Self.verifyAndRecord(made, in: folder, progress: progress)
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

    /// Checks an archive against what was recorded when it was made (its SHA-256), then
    /// opens it and checks every copy. Saves the outcome in the sidecar.
    static func verifyAndRecord(_ recorded: BackupRecord, in folder: BackupFolder, progress: (BackupProgress) -> Void) throws -> BackupRecord {
        var record = recorded
        let work = try folder.workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        do {
            let archive = folder.archive(record.id)
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
            try folder.save(record)
            return record
        } catch let error as BackupError {
            record.status = .failed
            if case .damaged(let reason) = error { record.failure = reason } else { record.failure = error.description }
            record.verifiedAt = Date()
            try? folder.save(record)
            throw error
        }
    }

    /// Verifies a backup of this folder again (by name) or any backup file (by path).
    public func verifyBackup(_ file: URL, progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }) async throws -> BackupManifest {
        let folder = backups
        if let record = folder.record(at: file) {
            return try await NIOThreadPool.singleton.runIfActive {
                guard let manifest = try Self.verifyAndRecord(record, in: folder, progress: progress).manifest else { throw BackupError.damaged("it has no manifest") }
                return manifest
            }
        }
        let work = try folder.workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        return try await NIOThreadPool.singleton.runIfActive { try BackupArchive.verify(file, into: work, progress: progress) }
    }

    /// Takes an uploaded or copied-in backup file into the backups folder, verified: it is
    /// then listed and restorable like any other. The file is moved, not copied.
    public func importBackup(_ file: URL, progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }) async throws -> BackupRecord {
        let folder = backups
        let name = folder.newName(at: Date())
        let archive = folder.archive(name)
        try FileManager.default.moveItem(at: file, to: archive)
        return try await NIOThreadPool.singleton.runIfActive {
            let work = try folder.workFolder()
            defer { try? FileManager.default.removeItem(at: work) }
            let record = BackupRecord(id: name, createdAt: Date(), archiveBytes: try BackupArchive.size(of: archive),
                                      archiveSHA256: try BackupArchive.sha256(of: archive), status: .verified, manifest: nil)
            var checked = try Self.verifyAndRecord(record, in: folder, progress: progress)
            // Listed by when its data was backed up, not when it arrived.
            if let manifest = checked.manifest {
                checked.createdAt = manifest.createdAt
                try folder.save(checked)
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
    /// verified and migrated first (the site keeps serving); then, with requests answered
    /// "restoring", a safety backup of the current data is taken and the data replaced in
    /// one transaction. The outbox and change tokens are rebased so that records the cloud
    /// has that are newer than the backup come back by the next pull, and records only the
    /// backup has go up. Sessions and API tokens belong to this machine and are kept.
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
        progress(BackupProgress(step: "safety backup", done: 0, total: 1))
        let safety = try await makeBackup(reason: .safety, now: now, progress: { _ in })
        progress(BackupProgress(step: "replace data", done: 0, total: 1))
        try await domain.replaceContents(with: copy)
        try await operational.rebase(on: try await domain.recordVersions())
        try await operational.note(StoreEvent(at: now, kind: .restored, detail:
            "Restored the backup of \(ISO8601DateFormatter().string(from: manifest.createdAt)) (\(manifest.recordCounts.summary)); the data before it is in the safety backup \(safety.id)."))
        progress(BackupProgress(step: "restored", done: 1, total: 1))
        return RestoreReport(manifest: manifest, safetyBackup: safety)
    }

    /// Verifies an archive into `work` and migrates its domain copy to this code's schema.
    /// Returns the copy, ready to replace the live data. Refuses a schema newer than the code.
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
        try StoreFile.refuseNewer(queue, migrator: DomainMigrations.migrator, file: "The backup's \(domainFileName)")
        try DomainMigrations.migrator.migrate(queue)
        try queue.close()
        return copy
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
