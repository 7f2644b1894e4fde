import Foundation
import GRDB
import HyzerCore
import Synchronization
import Testing

@testable import HyzerStore

/// What an attacker's or a broken backup file, and a restore racing with writes, must not do.
@Suite struct HostileBackupTests {
    typealias Fixture = DomainStoreTests.Fixture

    final class Accepted: Sendable {
        let ids = Mutex<[UUID]>([])
    }

    /// Rebuilds a backup around its own domain copy after `change` (a forged but internally
    /// consistent archive: digests and counts match the manifest).
    static func forge(_ fixture: Fixture, in directory: URL, _ change: String, describing: Bool = true) async throws -> URL {
        let backup = try await fixture.stores.createBackup()
        let work = directory.appendingPathComponent("forge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        var manifest = try BackupArchive.verify(fixture.stores.backups.archive(backup.id), into: work, progress: { _ in })
        let copy = work.appendingPathComponent("domain.sqlite")
        let queue = try DatabaseQueue(path: copy.path)
        try await queue.write { db in try db.execute(sql: change) }
        try queue.close()
        if describing {
            manifest.files[0] = try BackupArchive.describe(copy, name: "domain.sqlite")
        } else {
            // Reading this copy's migrations would not end: sizes, digest and counts by hand.
            manifest.files[0].bytes = try BackupArchive.size(of: copy)
            manifest.files[0].sha256 = try BackupArchive.sha256(of: copy)
            manifest.files[0].counts["kept_migrations"] = manifest.files[0].counts.removeValue(forKey: "grdb_migrations")
        }
        let forged = directory.appendingPathComponent("forged-\(UUID().uuidString).tar.gz")
        try BackupArchive.write(manifest, from: work, to: forged, progress: { _ in })
        return forged
    }

    @Test func aBackupThatBringsItsOwnTriggerIsRefusedAndChangesNothing() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let forged = try await Self.forge(
            fixture, in: directory.url,
            """
            CREATE TRIGGER backdoor AFTER INSERT ON score_events BEGIN UPDATE players SET role = 'admin'; END;
            """)
        // Internally consistent (digests and counts match), but it brings code Hyzer never
        // wrote: it is neither verified, nor imported, nor restored.
        await #expect(throws: BackupError.self) { _ = try await fixture.stores.backups.verify(forged) }
        await #expect(throws: BackupError.self) { _ = try await fixture.stores.restore(from: forged) }
        let upload = directory.url.appendingPathComponent("upload.tar.gz")
        try FileManager.default.copyItem(at: forged, to: upload)
        do {
            _ = try await fixture.stores.importBackup(upload)
            Issue.record("a forged schema must not import as verified")
        } catch let BackupError.damaged(reason) {
            #expect(reason.contains("trigger backdoor"))
        }
        let triggers = try await fixture.store.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'")
        }
        #expect(!triggers.contains("backdoor"))
        #expect(fixture.stores.restoringSince == nil)
    }

    /// `_` is a LIKE wildcard: a check that left out `name LIKE 'sqlite_%'` never compared
    /// these, and the trigger made a player an admin on the next score.
    @Test(arguments: [
        "CREATE TRIGGER sqlitexbackdoor AFTER INSERT ON score_events BEGIN UPDATE players SET role = 'admin'; END;",
        "CREATE TRIGGER SQLiteXbackdoor AFTER INSERT ON score_events BEGIN UPDATE players SET role = 'admin'; END;",
        "CREATE VIEW SQLite2view AS SELECT id, role FROM players;",
        "CREATE TABLE sqliteXtable (x);",
        "CREATE INDEX sqlite9idx ON players (role);",
    ])
    func anObjectNamedLikeSQLitesOwnIsComparedToo(_ change: String) async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let forged = try await Self.forge(fixture, in: directory.url, change)
        let upload = directory.url.appendingPathComponent("upload.tar.gz")
        try FileManager.default.copyItem(at: forged, to: upload)
        await #expect(throws: BackupError.self) { _ = try await fixture.stores.importBackup(upload) }
        await #expect(throws: BackupError.self) { _ = try await fixture.stores.restore(from: forged) }
        let objects = try await fixture.store.pool.read { db in try String.fetchAll(db, sql: "SELECT lower(name) FROM sqlite_master") }
        #expect(!objects.contains { $0.hasPrefix("sqlitex") || $0.hasPrefix("sqlite2") || $0.hasPrefix("sqlite9") })
    }

    /// A view that never ends, in place of the migrations table: reading it would hold a
    /// worker thread for ever. It is refused from the schema alone, before anything is read.
    @Test func aViewThatNeverEndsIsRefusedBeforeItIsRead() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let forged = try await Self.forge(
            fixture, in: directory.url,
            """
            ALTER TABLE grdb_migrations RENAME TO kept_migrations;
            CREATE VIEW grdb_migrations AS WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever) SELECT CAST(n AS TEXT) AS identifier FROM forever;
            """, describing: false)
        let upload = directory.url.appendingPathComponent("upload.tar.gz")
        try FileManager.default.copyItem(at: forged, to: upload)
        let outcome = try await Self.within(30) {
            do {
                _ = try await fixture.stores.importBackup(upload)
                return "imported"
            } catch let BackupError.damaged(reason) {
                return reason
            }
        }
        #expect(outcome.contains("view grdb_migrations"), "\(outcome)")
        await #expect(throws: BackupError.self) { _ = try await fixture.stores.backups.verify(forged) }
    }

    /// Runs `body`, failing (instead of hanging the suite) past `seconds`.
    static func within<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw CancellationError() }
            return value
        }
    }

    /// What an attacker's upload would carry: restored through the CLI's path over a damaged
    /// file (no running server, no verified record), the same check refuses it.
    @Test func aForgedBackupIsRefusedOverADamagedFileToo() async throws {
        let directory = try TemporaryDirectory()
        let forged: URL
        do {
            let fixture = try await Fixture(directory: directory.url)
            forged = try await Self.forge(
                fixture, in: directory.url,
                """
                CREATE TRIGGER sqlitexbackdoor AFTER INSERT ON score_events BEGIN UPDATE players SET role = 'admin'; END;
                """)
        }
        let target = try TemporaryDirectory()
        try Data(repeating: 0x5A, count: 4096).write(to: target.url.appendingPathComponent("domain.sqlite"))
        await #expect(throws: BackupError.self) { _ = try await Stores.restoreOverDamaged(directory: target.url, from: forged) }
    }

    @Test func everyAcceptedWriteSurvivesARestoreInTheLiveDataOrTheSafetyBackup() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let backup = try await fixture.stores.createBackup()
        let accepted = Accepted()
        let writers = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, player) in fixture.players.enumerated() {
                    group.addTask {
                        for hole in 1...9 {
                            for attempt in 0..<8 {
                                // Corrections chain on: each is a new event that must not vanish.
                                let submission = ScoreSubmission(playerID: player.id, hole: hole, strokes: .count(2 + (attempt + index) % 5))
                                if let recorded = try? await fixture.store.recordScore(submission, in: fixture.round.id), !recorded.duplicate {
                                    accepted.ids.withLock { $0.append(recorded.event.id) }
                                }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // The restore starts while the writers are writing.
        try await waitFor { !accepted.ids.withLock(\.isEmpty) }
        let report = try await fixture.stores.restore(from: fixture.stores.backups.archive(backup.id))
        try await writers.value

        let live = Set(try await fixture.store.snapshot(of: fixture.round.id).events.map(\.id))
        let work = directory.url.appendingPathComponent("safety")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        _ = try BackupArchive.verify(fixture.stores.backups.archive(report.safetyBackup.id), into: work, progress: { _ in })
        let saved = try DatabaseQueue(path: work.appendingPathComponent("domain.sqlite").path)
        let inSafety = Set(
            try await saved.read { db in try String.fetchAll(db, sql: "SELECT id FROM score_events") }.compactMap(UUID.init(uuidString:)))
        let lost = accepted.ids.withLock { $0 }.filter { !live.contains($0) && !inSafety.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) accepted scores are in neither the live data nor the safety backup")
        #expect(!accepted.ids.withLock { $0 }.isEmpty)
    }

    @Test func recoveryNeverStartsFromAnUploadOrTheDataARestoreReplaced() async throws {
        let directory = try TemporaryDirectory()
        var roundID = UUID()
        var own = ""
        do {
            let fixture = try await Fixture(directory: directory.url)
            roundID = fixture.round.id
            own = try await fixture.stores.createBackup().id
            // An upload from another club, newer than this machine's backup.
            let other = try TemporaryDirectory()
            let stranger = try await Fixture(directory: other.url)
            let theirs = try await stranger.stores.createBackup()
            let carried = directory.url.appendingPathComponent("carried.tar.gz")
            try FileManager.default.copyItem(at: stranger.stores.backups.archive(theirs.id), to: carried)
            let imported = try await fixture.stores.importBackup(carried)
            #expect(imported.imported == true)
            #expect(fixture.stores.backups.newestRecoveryPoint()?.id == own)
        }
        try Data("garbage".utf8).write(to: directory.url.appendingPathComponent("domain.sqlite"))
        let reopened = try await Stores(directory: directory.url)
        #expect(reopened.recovery?.backup?.id == own)
        #expect(try await reopened.domain.snapshot(of: roundID).players.count == 3)
    }

    @Test func afterARestoreARecoveryStartsFromTheRestoredData() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let early = try await fixture.stores.createBackup()
        _ = try await fixture.store.recordScore(ScoreSubmission(playerID: fixture.players[0].id, hole: 1, strokes: .count(3)), in: fixture.round.id)
        let report = try await fixture.stores.restore(from: fixture.stores.backups.archive(early.id))
        try await fixture.stores.backUpRestoredData()
        let point = try #require(fixture.stores.backups.newestRecoveryPoint())
        #expect(point.id != report.safetyBackup.id)
        #expect(point.manifest?.reason == .restored)
        #expect(point.manifest?.recordCounts.scoreEvents == 0)
    }

    @Test func aCommandBesideTheServerNeverRepairsAndARestoreWorksOverADamagedFile() async throws {
        let directory = try TemporaryDirectory()
        var backup = URL(fileURLWithPath: "/")
        do {
            let fixture = try await Fixture(directory: directory.url)
            let made = try await fixture.stores.createBackup()
            backup = directory.url.appendingPathComponent("kept.tar.gz")
            try FileManager.default.copyItem(at: fixture.stores.backups.archive(made.id), to: backup)
            for name in try FileManager.default.contentsOfDirectory(atPath: fixture.stores.backups.url.path) {
                try FileManager.default.removeItem(at: fixture.stores.backups.url.appendingPathComponent(name))
            }
        }
        let file = directory.url.appendingPathComponent("domain.sqlite")
        try Data(repeating: 0x5A, count: 4096).write(to: file)
        await #expect(throws: StoreError.self) { _ = try await Stores(directory: directory.url, mayRepair: false) }
        #expect(try Data(contentsOf: file) == Data(repeating: 0x5A, count: 4096), "left as it was")
        // With nothing to recover from, opening fails; the backup file restores over it.
        await #expect(throws: StoreError.self) { _ = try await Stores(directory: directory.url) }
        let (stores, manifest) = try await Stores.restoreOverDamaged(directory: directory.url, from: backup)
        #expect(manifest.recordCounts.players == 3)
        #expect(try await stores.domain.players().count == 3)
    }

    @Test func aGzipBombStopsAtTheLimit() throws {
        let directory = try TemporaryDirectory()
        let bomb = directory.url.appendingPathComponent("bomb.gz")
        let writer = try Gzip.Writer(to: bomb)
        for _ in 0..<8 { try writer.write(Data(count: 1 << 20)) }
        try writer.finish()
        #expect(try BackupArchive.size(of: bomb) < 64 << 10)
        #expect(throws: BackupError.self) {
            try Gzip.decompress(bomb, to: directory.url.appendingPathComponent("out"), limit: 1 << 20)
        }
        #expect(try BackupArchive.size(of: directory.url.appendingPathComponent("out")) <= (1 << 20) + (4 << 20))
    }

    @Test func leftoversOfAnInterruptedBackupAreRemovedAtStart() async throws {
        let directory = try TemporaryDirectory()
        _ = try await Stores(directory: directory.url)
        let folder = BackupFolder(dataDirectory: directory.url)
        let work = folder.url.appendingPathComponent(".work-interrupted")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try Data(count: 100).write(to: work.appendingPathComponent("archive.tar"))
        try Data(count: 100).write(to: folder.url.appendingPathComponent("hyzer-20260101-000000-000Z.tar.gz"))
        _ = try await Stores(directory: directory.url, mayRepair: false)
        #expect(FileManager.default.fileExists(atPath: work.path), "not while another process may be writing")
        _ = try await Stores(directory: directory.url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
