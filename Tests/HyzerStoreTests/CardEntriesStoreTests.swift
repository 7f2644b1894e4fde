import Foundation
import HyzerCore
import Testing

@testable import HyzerStore

/// A phone's outbox sent to the store: each entry once however often it is sent, the card's
/// rules deciding each entry as they decide a hole saved from the page.
@Suite struct CardEntriesStoreTests {
    typealias Club = LeagueStoreTests.Club

    func entry(_ club: Club, _ player: Int, hole: Int, _ strokes: Int, id: UUID = UUID()) -> DomainStore.CardScoreEntry {
        DomainStore.CardScoreEntry(id: id, playerID: club.fixture.players[player].id, hole: hole, strokes: .count(strokes))
    }

    func send(_ club: Club, _ entries: [DomainStore.CardScoreEntry], by keeper: Identity) async throws -> [DomainStore.CardEntryOutcome] {
        try await club.store.recordCardEntries(entries, card: club.card.id, in: club.round, author: keeper.playerID, by: keeper).outcomes
    }

    func winner(_ club: Club, _ player: Int, hole: Int) async throws -> ScoreEvent? {
        try await club.store.board(of: club.round).scores[club.fixture.players[player].id, hole]?.winner
    }

    @Test func aBatchSentTwiceRecordsEachEntryOnce() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Club(directory.url)
        let ann = club.identity(0)
        let batch = [entry(club, 0, hole: 1, 3), entry(club, 1, hole: 1, 4), entry(club, 2, hole: 1, 2), entry(club, 0, hole: 2, 5)]
        #expect(try await send(club, batch, by: ann) == [.recorded, .recorded, .recorded, .recorded])
        // The answer was lost; the phone sends the same batch again, to a store opened anew.
        let reopened = try await Stores(directory: directory.url)
        let again = try await reopened.domain.recordCardEntries(batch, card: club.card.id, in: club.round, author: ann.playerID, by: ann).outcomes
        #expect(again == [.duplicate, .duplicate, .duplicate, .duplicate])
        let board = try await reopened.domain.board(of: club.round)
        #expect(board.snapshot.events.count == 4)
        #expect(board.snapshot.events.allSatisfy { $0.reportedBy == ann.playerID })
        #expect(Set(board.snapshot.events.map(\.id)) == Set(batch.map(\.id)))
    }

    @Test func aBatchSentAgainNeverRevertsItsOwnLaterEntry() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Club(directory.url)
        let ann = club.identity(0)
        #expect(try await send(club, [entry(club, 0, hole: 1, 3)], by: ann) == [.recorded])
        // Hole 1 saved again unchanged, then corrected to 4; the answer to that batch is lost.
        let batch = [entry(club, 0, hole: 1, 3), entry(club, 0, hole: 1, 4)]
        #expect(try await send(club, batch, by: ann) == [.superseded, .recorded])
        #expect(try await send(club, batch, by: ann) == [.superseded, .duplicate])
        #expect(try await winner(club, 0, hole: 1)?.strokes == .count(4))
        // Saved unchanged alone, it stores nothing new.
        #expect(try await send(club, [entry(club, 0, hole: 1, 4)], by: ann) == [.unchanged])
        #expect(try await club.store.board(of: club.round).snapshot.events.count == 2)
    }

    @Test func twoPhonesThatDisagreeMakeOneMismatch() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Club(directory.url)
        let (ann, ben) = (club.identity(0), club.identity(1))
        _ = try await send(club, [entry(club, 0, hole: 3, 3), entry(club, 1, hole: 3, 3)], by: ann)
        _ = try await send(club, [entry(club, 0, hole: 3, 4), entry(club, 1, hole: 3, 3)], by: ben)
        let board = try await club.store.board(of: club.round)
        #expect(board.scores[club.fixture.players[0].id, 3]?.isConflict == true)
        #expect(board.scores[club.fixture.players[1].id, 3]?.isConflict == false)
        #expect(board.scores.conflicts.count == 1)
    }

    @Test func aSignedCardRefusesTheLateEntryAndKeepsTheOthers() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Club(directory.url)
        let ann = club.identity(0)
        for hole in 1...9 { try await club.hole(hole, by: ann, [3, 3, 3]) }
        _ = try await club.store.sign(playerID: club.fixture.players[1].id, in: club.round, by: club.coach)
        let outcomes = try await send(club, [entry(club, 0, hole: 9, 4), entry(club, 1, hole: 9, 5)], by: ann)
        #expect(outcomes.first == .recorded)
        guard case .refused(let reason) = outcomes.last else {
            Issue.record("Ben's entry was not refused")
            return
        }
        #expect(reason.message.contains("Ben has signed their card"))
        #expect(try await winner(club, 1, hole: 9)?.strokes == .count(3))
        #expect(try await winner(club, 0, hole: 9)?.strokes == .count(4))
    }

    @Test func entriesAreNeverRecordedAsSomeoneElses() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Club(directory.url)
        let (ann, ben) = (club.identity(0), club.identity(1))
        // Typed while Ann was signed in, sent after Ben signed in on that phone.
        await #expect(throws: DomainStore.CardBatchRejection.notTheAuthor(author: "Ann")) {
            _ = try await club.store.recordCardEntries(
                [entry(club, 0, hole: 1, 3)], card: club.card.id, in: club.round, author: ann.playerID, by: ben)
        }
        #expect(try await club.store.board(of: club.round).snapshot.events.isEmpty)
    }

    @Test func anIDReusedForOtherContentIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Club(directory.url)
        let ann = club.identity(0)
        let id = UUID()
        _ = try await send(club, [entry(club, 0, hole: 1, 3, id: id)], by: ann)
        let outcomes = try await send(club, [entry(club, 0, hole: 1, 5, id: id)], by: ann)
        guard case .refused(.conflict(let field, _, _)) = outcomes.first else {
            Issue.record("reuse not refused: \(outcomes)")
            return
        }
        #expect(field == "id")
        #expect(try await winner(club, 0, hole: 1)?.strokes == .count(3))
    }
}
