import Foundation
import GRDB
import HyzerCore
import Testing

@testable import HyzerStore

/// A mulligan night as the store keeps it: sales append-only and synced, each player's
/// allowance derived, the kept board changed by a sale, and entries past it refused whole.
@Suite struct MulliganStoreTests {
    static let rule = MulliganRule(given: 1, forSale: 2, priceCents: 150)

    static func night(_ store: DomainStore, players: [Player], course: Course) async throws -> Round {
        var valid = RoundDraft.Valid(name: "Mulligan night", courseID: course.id, playerIDs: players.map(\.id), startNow: true)
        valid.mulligans = rule
        return try await store.createRound(valid)
    }

    func score(_ player: UUID, hole: Int, mulligans: Int, supersedes: UUID? = nil) -> ScoreSubmission {
        var submission = ScoreSubmission(playerID: player, hole: hole, strokes: .count(3), supersedes: supersedes)
        submission.mulligans = mulligans
        return submission
    }

    @Test func aSaleRaisesTheAllowanceOnTheKeptBoardAndIsRefusedPastWhatIsForSale() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await DomainStoreTests.Fixture(directory: directory.url)
        let store = fixture.store
        let (ann, ben) = (fixture.players[0].id, fixture.players[1].id)
        let round = try await Self.night(store, players: fixture.players, course: fixture.course)
        _ = try await store.recordScore(score(ann, hole: 1, mulligans: 1), in: round.id)
        // Kept, then changed by the sale: the board reads "1 of 3" at once.
        let before = try await store.board(of: round.id)
        #expect(before.leaderboard.rows.first { $0.playerID == ann.lowercasedText }?.mulligans == "1 of 1")
        await #expect(throws: ScoreRejection.self) { _ = try await store.recordScore(score(ann, hole: 2, mulligans: 1), in: round.id) }
        let account = try await store.sellMulligans(2, cents: nil, to: ann, in: round.id, by: nil)
        #expect(account.bought == 2 && account.left == 2 && account.used == 1)
        let after = try await store.board(of: round.id)
        #expect(after.version > before.version)
        #expect(after.leaderboard.rows.first { $0.playerID == ann.lowercasedText }?.mulligans == "1 of 3")
        _ = try await store.recordScore(score(ann, hole: 2, mulligans: 2), in: round.id)
        // Past what is for sale, giving back what was used, and another player's own allowance.
        await #expect(throws: LeagueRejection.self) { _ = try await store.sellMulligans(1, cents: nil, to: ann, in: round.id, by: nil) }
        await #expect(throws: LeagueRejection.self) { _ = try await store.sellMulligans(-1, cents: nil, to: ann, in: round.id, by: nil) }
        let bens = try await store.sellMulligans(1, cents: 100, to: ben, in: round.id, by: nil)
        #expect(bens.given == 1 && bens.bought == 1 && bens.used == 0)
        let sales = try await store.pool.read { db in try MulliganSaleRecord.sales(of: round.id.text, aliases: [:], db) }
        #expect(sales.map(\.cents) == [300, 100], "the round's price unless the coach names the amount")
        // Append-only, like signatures.
        await #expect(throws: DatabaseError.self) {
            try await store.pool.write { db in try db.execute(sql: "DELETE FROM mulligan_sales") }
        }
        // A round that is not a mulligan night sells none.
        await #expect(throws: LeagueRejection.self) {
            _ = try await store.sellMulligans(1, cents: nil, to: ann, in: fixture.round.id, by: nil)
        }
    }

    @Test func aCardHoleOverTheAllowanceWritesNothingAndAMismatchOfMulligansIsOne() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await DomainStoreTests.Fixture(directory: directory.url)
        let store = fixture.store
        let round = try await Self.night(store, players: fixture.players, course: fixture.course)
        let planned = try await store.planCards(of: round.id, shotgun: true, firstTee: nil)
        let card = try #require(planned.round.cards.first)
        let players = fixture.players
        func keeper(_ index: Int) -> Identity {
            Identity(playerID: players[index].id, handle: players[index].handle.value, displayName: players[index].displayName, role: .athlete)
        }
        func entries(_ mulligans: [Int]) -> [DomainStore.CardEntry] {
            zip(players, mulligans).map { DomainStore.CardEntry(playerID: $0.id, strokes: .count(3), mulligans: $1) }
        }
        _ = try await store.recordCardHole(entries([1, 0, 0]), hole: 1, card: card.id, in: round.id, by: keeper(0))
        let stored = try await store.board(of: round.id).snapshot.events.count
        await #expect(throws: ScoreRejection.self) {
            _ = try await store.recordCardHole(entries([1, 1, 0]), hole: 2, card: card.id, in: round.id, by: keeper(0))
        }
        #expect(try await store.board(of: round.id).snapshot.events.count == stored, "nothing of a refused hole is written")
        // Ben enters the same throws for Ann on hole 1 but no mulligan: the scorekeepers disagree.
        _ = try await store.recordCardHole(entries([0, 0, 0]), hole: 1, card: card.id, in: round.id, by: keeper(1))
        let board = try await store.board(of: round.id)
        #expect(board.standings.conflicts.map(\.playerID) == [players[0].id])
    }

    @Test func salesAndMulligansUsedReachAnotherDeviceThroughTheCloud() async throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        let fixture = try await DomainStoreTests.Fixture(directory: first.url)
        let b = try await Stores(directory: second.url).domain
        let ann = fixture.players[0].id
        let round = try await Self.night(fixture.store, players: fixture.players, course: fixture.course)
        _ = try await fixture.store.sellMulligans(1, cents: nil, to: ann, in: round.id, by: nil)
        _ = try await fixture.store.recordScore(score(ann, hole: 4, mulligans: 2), in: round.id)
        let sent: [CloudRecord] = try await fixture.store.pool.read { db in
            var records: [CloudRecord] = []
            for (type, table, _) in VersionedTables.all {
                for id in try String.fetchAll(db, sql: "SELECT id FROM \(table)") {
                    if let record = try DomainStore.cloudRecord(type, id, db) { records.append(record) }
                }
            }
            return records
        }
        _ = try await b.applyRemote(sent.map { try RemoteChange.read($0) })
        let board = try await b.board(of: round.id)
        #expect(board.snapshot.round.mulligans == Self.rule)
        #expect(MulliganBook.accounts(board.snapshot, scores: board.scores).first { $0.playerID == ann }?.holes == [4])
        #expect(board.leaderboard.rows.first { $0.playerID == ann.lowercasedText }?.mulligans == "2 of 2")
    }
}
