import Foundation
import GRDB
import HyzerCore
import Synchronization
import Testing

@testable import HyzerStore

@Suite struct BackupTests {
    typealias Fixture = DomainStoreTests.Fixture

    /// Posts scores on every hole of every player, round after round of holes, until stopped.
    static func postScores(_ fixture: Fixture, holes: ClosedRange<Int>) async throws -> Int {
        var posted = 0
        for hole in holes {
            for player in fixture.players {
                _ = try await fixture.store.recordScore(
                    ScoreSubmission(playerID: player.id, hole: hole, strokes: .count(2 + (hole + posted) % 4)), in: fixture.round.id)
                posted += 1
            }
        }
        return posted
    }

    static func snapshot(_ stores: Stores, _ round: UUID) async throws -> RoundSnapshot {
        try await stores.domain.snapshot(of: round)
    }

    @Test func aBackupTakenWhileScoresArePostedRestoresToAConsistentCopy() async throws {
        let source = try TemporaryDirectory()
        let fixture = try await Fixture(directory: source.url)
        _ = try await Self.postScores(fixture, holes: 1...3)
        // Scores keep arriving while the backup runs.
        async let writer = Self.postScores(fixture, holes: 4...9)
        let during = try await fixture.stores.createBackup()
        _ = try await writer
        #expect(during.isVerified)

        let target = try TemporaryDirectory()
        let restored = try await Stores(directory: target.url)
        let report = try await restored.restore(from: fixture.stores.backups.archive(during.id))
        let copy = try await Self.snapshot(restored, fixture.round.id)
        let original = try await Self.snapshot(fixture.stores, fixture.round.id)
        // A snapshot of one moment: every restored event is the source's, unchanged, and the
        // counts are those of the manifest.
        let byID = Dictionary(uniqueKeysWithValues: original.events.map { ($0.id, $0) })
        #expect(copy.events.allSatisfy { byID[$0.id] == $0 })
        #expect(copy.events.count >= 9)
        #expect(copy.events.count == report.manifest.recordCounts.scoreEvents)
        var then = original
        then.events = original.events.filter { event in copy.events.contains { $0.id == event.id } }
        #expect(copy.board.standings == then.board.standings)

        // Once writes stop, a backup restores to exactly the source.
        let after = try await fixture.stores.createBackup()
        _ = try await restored.restore(from: fixture.stores.backups.archive(after.id))
        let exact = try await Self.snapshot(restored, fixture.round.id)
        #expect(Set(exact.events) == Set(original.events))
        #expect(exact.board.standings == original.board.standings)
        #expect(try await restored.domain.players().map(\.id) == (try await fixture.store.players()).map(\.id))
        #expect(try await restored.domain.courses() == (try await fixture.store.courses()))
    }

    @Test func aRestoreRepublishesThroughTheExistingObservation() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        _ = try await Self.postScores(fixture, holes: 1...2)
        let backup = try await fixture.stores.createBackup()
        _ = try await Self.postScores(fixture, holes: 3...5)
        let before = try await Self.snapshot(fixture.stores, fixture.round.id)

        let seen = Mutex<[[UUID: Int]]>([])
        let observer = Task {
            for try await versions in fixture.store.roundVersions() {
                seen.withLock { $0.append(versions) }
            }
        }
        defer { observer.cancel() }
        while seen.withLock({ $0.isEmpty }) { await Task.yield() }

        _ = try await fixture.stores.restore(from: fixture.stores.backups.archive(backup.id))
        let after = try await Self.snapshot(fixture.stores, fixture.round.id)
        #expect(after.events.count == before.events.count - 9)
        // Fewer events, yet a higher version than anything served before: the hub passes it on.
        #expect(after.version > before.version)
        try await waitFor { seen.withLock { $0.last?[fixture.round.id] } == after.version }
    }

    @Test func verificationCatchesAFlippedByteAndATruncatedFile() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        _ = try await Self.postScores(fixture, holes: 1...9)
        let folder = fixture.stores.backups
        for damage in ["flip", "truncate"] {
            let backup = try await fixture.stores.createBackup()
            let archive = folder.archive(backup.id)
            var bytes = try Data(contentsOf: archive)
            if damage == "flip" {
                // Sixteen bytes, every bit: one flipped bit can land on a padding bit of a
                // deflate flush block, which changes no content at all (and is rightly accepted).
                for index in (bytes.count / 2)..<(bytes.count / 2 + 16) { bytes[index] ^= 0xFF }
            } else {
                bytes = bytes.prefix(bytes.count / 2)
            }
            // A copy outside the folder has no recorded checksum: the archive itself must tell.
            let loose = directory.url.appendingPathComponent("loose-\(damage).tar.gz")
            try bytes.write(to: loose)
            await #expect(throws: BackupError.self) { _ = try await fixture.stores.backups.verify(loose) }

            try bytes.write(to: archive)
            await #expect(throws: BackupError.self) { _ = try await fixture.stores.backups.verify(archive) }
            let record = try #require(folder.record(backup.id))
            #expect(record.status == .failed)
            #expect(record.failure?.isEmpty == false)
            // Kept for inspection, never offered for restore.
            #expect(FileManager.default.fileExists(atPath: archive.path))
            await #expect(throws: BackupError.notRestorable(backup.id)) { _ = try await fixture.stores.restore(from: archive) }
        }
        #expect(folder.newestVerified() == nil)
    }

    @Test func aDamagedDatabaseInsideAnIntactArchiveIsCaught() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        _ = try await Self.postScores(fixture, holes: 1...9)
        let backup = try await fixture.stores.createBackup()
        // Rebuild the archive around a domain copy whose rows differ from its manifest.
        let work = directory.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let manifest = try BackupArchive.verify(fixture.stores.backups.archive(backup.id), into: work, progress: { _ in })
        let queue = try DatabaseQueue(path: work.appendingPathComponent("domain.sqlite").path)
        try await queue.write { db in
            try db.execute(
                sql: "DROP TRIGGER score_events_are_permanent; DELETE FROM score_events WHERE rowid IN (SELECT rowid FROM score_events LIMIT 1)")
        }
        try queue.close()
        var forged = manifest
        let copy = work.appendingPathComponent("domain.sqlite")
        forged.files[0].sha256 = try BackupArchive.sha256(of: copy)
        forged.files[0].bytes = try BackupArchive.size(of: copy)
        let rebuilt = directory.url.appendingPathComponent("forged.tar.gz")
        try BackupArchive.write(forged, from: work, to: rebuilt, progress: { _ in })
        await #expect(throws: BackupError.damaged("domain.sqlite has other row counts than its manifest (score_events)")) {
            _ = try await fixture.stores.backups.verify(rebuilt)
        }
    }

    @Test func anArchiveOpensWithStandardTar() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let backup = try await fixture.stores.createBackup()
        let listing = Process()
        listing.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        listing.arguments = ["tar", "tzf", fixture.stores.backups.archive(backup.id).path]
        let pipe = Pipe()
        listing.standardOutput = pipe
        try listing.run()
        listing.waitUntilExit()
        let names = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        #expect(listing.terminationStatus == 0)
        #expect(names == ["manifest.json", "domain.sqlite", "sync.sqlite"])
        let manifest = try #require(backup.manifest)
        #expect(manifest.deviceID == fixture.store.deviceID)
        #expect(manifest.file("domain.sqlite")?.schema == DomainMigrations.migrator.migrations.last)
        #expect(manifest.file("sync.sqlite")?.schema == OperationalMigrations.migrator.migrations.last)
        #expect(manifest.recordCounts == RecordCounts(players: 3, courses: 1, rounds: 1, scoreEvents: 0))
    }

    @Test func anArchiveRepackedWithStandardTarStillVerifiesAndRestores() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let backup = try await fixture.stores.createBackup()
        let unpacked = directory.url.appendingPathComponent("unpacked")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        let repacked = directory.url.appendingPathComponent("repacked.tar.gz")
        for arguments in [
            ["tar", "xzf", fixture.stores.backups.archive(backup.id).path, "-C", unpacked.path],
            ["tar", "czf", repacked.path, "-C", unpacked.path, "."],
        ] {
            let tar = Process()
            tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            tar.arguments = arguments
            try tar.run()
            tar.waitUntilExit()
            #expect(tar.terminationStatus == 0)
        }
        // "./" and "./domain.sqlite" entries: the same files.
        #expect(try await fixture.stores.backups.verify(repacked).recordCounts == backup.manifest?.recordCounts)
        _ = try await fixture.stores.restore(from: repacked)
    }

    @Test func pruningDeletesWhatTheRuleDoesNotKeep() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        var made: [BackupRecord] = []
        for _ in 0..<4 { made.append(try await fixture.stores.createBackup()) }
        let deleted = fixture.stores.pruneBackups(BackupRetention(recent: 2, days: 0))
        #expect(Set(deleted) == Set(made.prefix(2).map(\.id)))
        #expect(fixture.stores.backups.records().map(\.id) == made.suffix(2).reversed().map(\.id))
        for name in deleted { #expect(!FileManager.default.fileExists(atPath: fixture.stores.backups.archive(name).path)) }
    }

    @Test func oneBackupOrRestoreAtATime() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        try fixture.stores.begin(.backingUp)
        await #expect(throws: BackupError.busy) { _ = try await fixture.stores.createBackup() }
        fixture.stores.end()
        #expect(try await fixture.stores.createBackup().isVerified)
    }
}

/// Polls a condition that an observation makes true (bounded: fails after 10 s).
func waitFor(_ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within 10 s")
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
