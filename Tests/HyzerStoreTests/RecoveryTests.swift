import Foundation
import GRDB
import HyzerCore
import Testing

@testable import HyzerStore

/// A damaged or too-new store is found at start, and nothing is lost or overwritten.
@Suite struct RecoveryTests {
    typealias Fixture = DomainStoreTests.Fixture

    enum Damage: String, CaseIterable {
        case truncatedToHalf, garbageHeader

        func apply(to file: URL) throws {
            var bytes = try Data(contentsOf: file)
            switch self {
            case .truncatedToHalf: bytes = bytes.prefix(bytes.count / 2)
            case .garbageHeader: bytes.replaceSubrange(0..<100, with: Data(repeating: 0x5A, count: 100))
            }
            try bytes.write(to: file)
        }
    }

    /// Closes every connection by letting the stores go, then checkpoints nothing: the file
    /// on disk is what a crash would leave, WAL folded in by the last close.
    static func closedStore(_ directory: URL, _ work: (Fixture) async throws -> Void) async throws {
        let fixture = try await Fixture(directory: directory)
        try await work(fixture)
    }

    @Test(arguments: Damage.allCases)
    func aDamagedDomainFileIsRecoveredFromTheNewestVerifiedBackup(_ damage: Damage) async throws {
        let directory = try TemporaryDirectory()
        var roundID = UUID()
        var expected: [ScoreEvent] = []
        try await Self.closedStore(directory.url) { fixture in
            roundID = fixture.round.id
            for (index, player) in fixture.players.enumerated() {
                _ = try await fixture.store.recordScore(
                    ScoreSubmission(playerID: player.id, hole: 1, strokes: .count(3 + index)), in: fixture.round.id)
            }
            _ = try await fixture.stores.createBackup()
            expected = try await fixture.store.snapshot(of: fixture.round.id).events
        }
        let file = directory.url.appendingPathComponent(Stores.domainFileName)
        try damage.apply(to: file)

        let reopened = try await Stores(directory: directory.url)
        let recovery = try #require(reopened.recovery)
        #expect(recovery.backup != nil)
        #expect(!recovery.needsCloudRefill)
        #expect(Set(try await reopened.domain.snapshot(of: roundID).events) == Set(expected))
        // The damaged file is kept beside, never deleted.
        #expect(FileManager.default.fileExists(atPath: recovery.damagedFile.path))
        let events = try await reopened.operational.storeEvents()
        #expect(events.first?.kind == .recoveredDomain)
        #expect(events.first?.detail.contains(recovery.damagedFile.lastPathComponent) == true)
    }

    @Test func withNeitherBackupNorCloudStartingIsRefusedWithWhatToDo() async throws {
        let directory = try TemporaryDirectory()
        try await Self.closedStore(directory.url) { _ in }
        let file = directory.url.appendingPathComponent(Stores.domainFileName)
        try Damage.garbageHeader.apply(to: file)
        let before = try Data(contentsOf: file)
        do {
            _ = try await Stores(directory: directory.url)
            Issue.record("a damaged store with nothing to recover from must not open")
        } catch let StoreError.unrecoverable(message) {
            #expect(message.contains("hyzer backup restore"))
            #expect(message.contains("--cloud"))
        }
        // Nothing was moved or changed: the operator decides.
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func aDatabaseFromANewerHyzerIsRefusedAndLeftAlone() async throws {
        let directory = try TemporaryDirectory()
        try await Self.closedStore(directory.url) { fixture in
            try await fixture.store.pool.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')")
            }
        }
        let file = directory.url.appendingPathComponent(Stores.domainFileName)
        let schema = { () throws -> [String] in
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: file.path, configuration: configuration)
            return try queue.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master ORDER BY name")
                    + String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            }
        }
        let before = try schema()
        await #expect(
            throws: StoreError.newerSchema(file: "domain.sqlite", found: "v9-from-the-future", known: DomainMigrations.migrator.migrations.last ?? "")
        ) {
            _ = try await Stores(directory: directory.url)
        }
        let message = StoreError.newerSchema(file: "domain.sqlite", found: "v9-from-the-future", known: "v7-player-division").description
        #expect(message.contains("v9-from-the-future") && message.contains("v7-player-division"))
        // Not migrated: no table or migration was added.
        #expect(try schema() == before)
    }

    @Test func aBackupFromANewerHyzerIsNotRestored() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        try await fixture.store.pool.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')")
        }
        let backup = try await fixture.stores.createBackup()
        try await fixture.store.pool.write { db in try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v9-from-the-future'") }
        await #expect(throws: StoreError.self) { _ = try await fixture.stores.restore(from: fixture.stores.backups.archive(backup.id)) }
        #expect(fixture.stores.restoringSince == nil)
        // Uploaded, it is checked as a restore checks it: listed as failed, with the reason.
        let upload = directory.url.appendingPathComponent("upload.tar.gz")
        try FileManager.default.copyItem(at: fixture.stores.backups.archive(backup.id), to: upload)
        await #expect(throws: StoreError.self) { _ = try await fixture.stores.importBackup(upload) }
        let failed = try #require(fixture.stores.backups.records().first { $0.imported == true })
        #expect(failed.status == .failed)
        #expect(failed.failure?.contains("v9-from-the-future") == true)
        #expect(try await fixture.store.snapshot(of: fixture.round.id).players.count == 3)
    }

    @Test func aDamagedSyncFileIsNotedForTheAdminPage() async throws {
        let directory = try TemporaryDirectory()
        let before = try await Stores(directory: directory.url).domain.deviceID
        try await Self.closedStore(directory.url) { _ in }
        try Damage.garbageHeader.apply(to: directory.url.appendingPathComponent(Stores.operationalFileName))
        let reopened = try await Stores(directory: directory.url)
        #expect(reopened.damagedOperationalFile != nil)
        // The device stays the same device: its clock and the origin of its records keep their id.
        #expect(reopened.domain.deviceID == before)
        let events = try await reopened.operational.storeEvents()
        #expect(events.map(\.kind) == [.rebuiltOperational])
    }
}
