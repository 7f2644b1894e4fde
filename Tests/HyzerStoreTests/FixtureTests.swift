import Foundation
import GRDB
import HyzerCore
import Testing

@testable import HyzerStore

/// Every released schema's databases (Tests/Fixtures/*) open with today's code: migrations
/// run on them, and the round, its players, its events and its standings are all there.
@Suite struct FixtureTests {
    struct Expected: Decodable {
        struct Leader: Decodable {
            var displayName: String
            var strokes: Int
            var toPar: Int
        }

        var schema: String
        var roundID: String
        var roundName: String
        var players: Int
        var scoreEvents: Int
        var leader: Leader
        var lastIsDNF: Bool
        /// Entries the fixture's outbox held (in sync.sqlite before 0.7), when it was written with one.
        var outboxPending: Int?
        /// A league season, in the fixtures written after seasons.
        var season: Season?
        /// A player's entered (e.g. PDGA) rating, in the fixtures written after ratings.
        var enteredRating: EnteredRating?
        /// A player's PDGA number and email, in the fixtures written after they came.
        var playerContact: PlayerContact?
        /// A league night with its day, in the fixtures written after nights had one.
        var datedNight: DatedNight?
        /// A bag-tag pool with one tag assigned, in the fixtures written after bag tags.
        var tagPool: TagPool?
        /// An ace pot fed by a night's fee and a contribution, in the fixtures written after money.
        var pot: Pot?

        struct Pot: Decodable {
            var id: String
            var name: String
            var balanceCents: Int
            var feeNight: String
        }

        struct TagPool: Decodable {
            var id: String
            var name: String
            var tags: Int
            var holderID: String
            var tag: Int
        }

        struct PlayerContact: Decodable {
            var playerID: String
            var pdgaNumber: Int
            var email: String
        }

        struct DatedNight: Decodable {
            var eventID: String
            var seasonID: String
            var name: String
            var playedOn: String
        }

        struct EnteredRating: Decodable {
            var playerID: String
            var rating: Int
        }

        struct Season: Decodable {
            var id: String
            var leader: String
            var points: Int
            var nights: Int
            /// A night with check-in open and how many are checked in (one undone); a night
            /// and its fee ledger's length.
            var openNight: String
            var checkIns: Int
            var feeNight: String
            var feePayments: Int
            /// A round of that night, and the throws its leader's frozen handicap takes off.
            var frozenRound: String
            var leaderHandicap: Int
        }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static var folders: [URL] {
        let entries = (try? FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: [.isDirectoryKey])) ?? []
        return entries.filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }.sorted { $0.path < $1.path }
    }

    @Test func thereIsAFixtureForTheSchemaBeforeAccounts() {
        #expect(Self.folders.map(\.lastPathComponent).contains("v2-sync"))
    }

    @Test(arguments: folders)
    func opensWithTodaysCode(_ folder: URL) async throws {
        let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: folder.appendingPathComponent("expected.json")))
        // A copy: the committed files are never written.
        let directory = try TemporaryDirectory()
        for name in [Stores.domainFileName, Stores.operationalFileName] {
            try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: directory.url.appendingPathComponent(name))
        }

        let stores = try await Stores(directory: directory.url)

        #expect(try stores.domain.appliedMigrations == Array(DomainMigrations.migrator.migrations))
        let roundID = try #require(UUID(text: expected.roundID))
        let snapshot = try await stores.domain.snapshot(of: roundID)
        #expect(snapshot.round.name == expected.roundName)
        #expect(snapshot.players.count == expected.players)
        #expect(snapshot.events.count == expected.scoreEvents)
        let standings = snapshot.board.leaderboard.rows
        #expect(standings.first?.displayName == expected.leader.displayName)
        #expect(standings.first?.strokes == String(expected.leader.strokes))
        #expect(standings.last?.dnf == expected.lastIsDNF)
        if let pending = expected.outboxPending {
            // Carried from sync.sqlite into domain.sqlite, and gone from the old file.
            #expect(try await stores.outbox.counts().pending == pending)
            #expect(try await stores.operational.legacyOutboxEntries().isEmpty)
            #expect(try await stores.reconcile() == 0, "every local write of the fixture is queued")
        }
        if let league = expected.season {
            let season = try await stores.domain.seasonSnapshot(try #require(UUID(text: league.id)))
            #expect(season.nights.count == league.nights)
            let leader = season.standings.divisions.first?.entries.first
            #expect(leader?.displayName == league.leader && leader?.points == league.points)
            let night = try #require(UUID(text: league.openNight))
            #expect(try await stores.domain.checkIns(of: night).count == league.checkIns)
            #expect(try await stores.domain.feeLedger(of: try #require(UUID(text: league.feeNight))).count == league.feePayments)
            let board = try await stores.domain.board(of: try #require(UUID(text: league.frozenRound)))
            #expect(board.standings.entries.first { $0.displayName == league.leader }?.handicap == league.leaderHandicap)
        }
        if let entered = expected.enteredRating {
            let player = try await stores.domain.player(try #require(UUID(text: entered.playerID)))
            #expect(player?.enteredRating == entered.rating)
        }
        if let contact = expected.playerContact {
            let player = try await stores.domain.player(try #require(UUID(text: contact.playerID)))
            #expect(player?.pdgaNumber == contact.pdgaNumber && player?.email == contact.email)
        }
        if let dated = expected.datedNight {
            let night = try #require(try await stores.domain.events().first { $0.id.text == dated.eventID })
            #expect(night.name == dated.name && night.playedOn == dated.playedOn && night.seasonID?.text == dated.seasonID)
        }
        if let pool = expected.tagPool {
            let ledger = try await stores.domain.tagLedger(try #require(UUID(text: pool.id)))
            #expect(ledger.pool.name == pool.name && ledger.pool.numbers.count == pool.tags)
            #expect(ledger.holders.map { [$0.tag: $0.playerID.text] } == [[pool.tag: pool.holderID]])
        }
        if let pot = expected.pot {
            let id = try #require(UUID(text: pot.id))
            #expect(try await stores.domain.pots().first { $0.id == id }?.name == pot.name)
            #expect(try await stores.domain.books().balance(of: .pot(id)) == pot.balanceCents)
            #expect(try await stores.domain.feeLedger(of: try #require(UUID(text: pot.feeNight))).first?.payment.cents == 1000)
        }
        // A backup of this release's data restores: once migrated, its whole schema (SQLite's
        // own objects included) is the one today's migrator writes.
        for name in [Stores.domainFileName, Stores.operationalFileName] {
            try BackupArchive.refuseForeignCode(folder.appendingPathComponent(name), name: name)
        }
        let copy = directory.url.appendingPathComponent("restorable.sqlite")
        try FileManager.default.copyItem(at: folder.appendingPathComponent(Stores.domainFileName), to: copy)
        try Stores.migrateAndCheck(copy)
        // Reopening after the migrations is a no-op, and the round is still whole.
        let again = try await Stores(directory: directory.url)
        #expect(try await again.domain.snapshot(of: roundID).events.count == expected.scoreEvents)
        if let pending = expected.outboxPending {
            #expect(try await again.outbox.counts().pending == pending)
        }
    }
}

/// Both stores' outbox migrations make their table from one definition (`Outbox.createTable`):
/// what today's code makes must be, statement for statement, what the released versions made.
@Suite struct OutboxSchemaTests {
    static func outboxSchema(_ file: URL) throws -> [String] {
        let queue = try DatabaseQueue(
            path: file.path,
            configuration: {
                var c = Configuration()
                c.readonly = true
                return c
            }())
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name = 'outbox' AND sql IS NOT NULL ORDER BY name")
        }
    }

    @Test func todaysOutboxTablesAreTheReleasedOnes() async throws {
        let directory = try TemporaryDirectory()
        _ = try await Stores(directory: directory.url)
        let released = FixtureTests.root.appendingPathComponent("v5-outbox")
        let releasedDomain = try Self.outboxSchema(released.appendingPathComponent(Stores.domainFileName))
        #expect(releasedDomain.count == 3, "the table and its two indexes")
        #expect(try Self.outboxSchema(directory.url.appendingPathComponent(Stores.domainFileName)) == releasedDomain)
        let releasedSync = try Self.outboxSchema(
            FixtureTests.root.appendingPathComponent("v2-sync").appendingPathComponent(Stores.operationalFileName))
        #expect(releasedSync.count == 2, "the table and its index")
        #expect(try Self.outboxSchema(directory.url.appendingPathComponent(Stores.operationalFileName)) == releasedSync)
    }
}
