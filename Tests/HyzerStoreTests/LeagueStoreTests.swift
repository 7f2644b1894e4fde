import Foundation
import HyzerCore
import Testing

@testable import HyzerStore

/// League rules as the store enforces them, each from a way a player could get around
/// cross-checked scoring or lose a card's data.
@Suite struct LeagueStoreTests {
    struct Club {
        let fixture: DomainStoreTests.Fixture
        let card: Card
        var store: DomainStore { fixture.store }
        var round: UUID { fixture.round.id }
        func identity(_ index: Int, _ role: Role = .athlete) -> Identity {
            let player = fixture.players[index]
            return Identity(playerID: player.id, handle: player.handle.value, displayName: player.displayName, role: role)
        }
        /// A coach of the club (a player the store knows as one: a correction decides a hole by
        /// its reporter's stored role).
        let coach: Identity

        init(_ directory: URL) async throws {
            fixture = try await DomainStoreTests.Fixture(directory: directory)
            let player = try await fixture.store.createAccount(
                PlayerDraft(displayName: "Coach", handle: "coach", role: "coach").validated(), passwordHash: nil)
            coach = Identity(playerID: player.id, handle: "coach", displayName: "Coach", role: .coach)
            let planned = try await fixture.store.planCards(of: fixture.round.id, shotgun: true, firstTee: nil)
            card = try #require(planned.round.cards.first)
        }

        @discardableResult
        func hole(_ hole: Int, by keeper: Identity, _ strokes: [Int]) async throws -> RoundSnapshot {
            try await store.recordCardHole(
                zip(fixture.players, strokes).map { DomainStore.CardEntry(playerID: $0.id, strokes: .count($1)) },
                hole: hole, card: card.id, in: round, by: keeper)
        }
    }

    @Test func aPlayerCannotOverruleAnotherScorekeeper() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Club(directory.url)
        let (ann, ben) = (club.identity(0), club.identity(1))
        try await club.hole(1, by: ann, [2, 3, 3])
        try await club.hole(1, by: ben, [4, 3, 3])
        let leaves = try #require(try await club.store.board(of: club.round).scores[club.fixture.players[0].id, 1]?.leaves)
        let bensEntry = try #require(leaves.first { $0.reportedBy == ben.playerID })
        // Ann supersedes Ben's entry through the scores API's path: refused, the mismatch stays.
        await #expect(throws: ScoreRejection.self) {
            _ = try await club.store.recordScore(
                ScoreSubmission(playerID: ann.playerID, hole: 1, strokes: .count(2), supersedes: bensEntry.id), in: club.round, by: ann)
        }
        #expect(try await club.store.board(of: club.round).standings.conflicts.count == 1)
        // Ann correcting her own entry to another value that Ben does not share: still a mismatch.
        let annsEntry = try #require(leaves.first { $0.reportedBy == ann.playerID })
        _ = try await club.store.recordScore(
            ScoreSubmission(playerID: ann.playerID, hole: 1, strokes: .count(5), supersedes: annsEntry.id), in: club.round, by: ann)
        #expect(try await club.store.board(of: club.round).standings.conflicts.count == 1)

        // A coach's entry on the card decides the hole: no mismatch left, everyone sees it.
        try await club.hole(1, by: club.coach, [3, 3, 3])
        let board = try await club.store.board(of: club.round)
        #expect(board.standings.conflicts.isEmpty)
        #expect(board.scores[club.fixture.players[0].id, 1]?.winner.strokes == .count(3))
        // …and a player cannot overrule the coach either: not by correcting, not from the card.
        let coachs = try #require(board.scores[club.fixture.players[0].id, 1]?.winner)
        await #expect(throws: ScoreRejection.self) {
            _ = try await club.store.recordScore(
                ScoreSubmission(playerID: ann.playerID, hole: 1, strokes: .count(2), supersedes: coachs.id), in: club.round, by: ann)
        }
        await #expect(throws: ScoreRejection.self) { try await club.hole(1, by: ben, [5, 3, 3]) }
        #expect(try await club.store.board(of: club.round).standings.conflicts.isEmpty)
    }

    @Test func aSignedPlayerDoesNotStopTheRestOfTheCard() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Club(directory.url)
        let (ann, ben) = (club.identity(0), club.identity(1))
        for hole in 1...9 { try await club.hole(hole, by: ann, [3, 3, 3]) }
        _ = try await club.store.sign(playerID: ann.playerID, in: club.round, by: ann)
        // Ben saves a hole for the whole card, Ann's unchanged value included: accepted.
        try await club.hole(2, by: ben, [3, 4, 3])
        // Ben changing Ann's score is refused, and nothing of that request is written.
        let version = try await club.store.board(of: club.round).version
        await #expect(throws: ScoreRejection.signed("Ann")) { try await club.hole(3, by: ben, [2, 3, 4]) }
        #expect(try await club.store.board(of: club.round).version == version)
    }

    @Test func aCardIsSignedByItsOwnPlayerOnceEveryHoleIsInAndAgreed() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Club(directory.url)
        let (ann, ben) = (club.identity(0), club.identity(1))
        for hole in 1...8 { try await club.hole(hole, by: ann, [3, 3, 3]) }
        await #expect(throws: LeagueRejection.conflict("Ann cannot sign yet: hole 9 has no score.")) {
            _ = try await club.store.sign(playerID: ann.playerID, in: club.round, by: ann)
        }
        try await club.hole(9, by: ann, [3, 3, 3])
        try await club.hole(9, by: ben, [4, 3, 3])
        await #expect(throws: LeagueRejection.conflict("Ann cannot sign yet: the scorekeepers disagree on hole 9.")) {
            _ = try await club.store.sign(playerID: ann.playerID, in: club.round, by: ann)
        }
        try await club.hole(9, by: ben, [3, 3, 3])
        // Nobody signs for another player but a coach.
        let refusal = await #expect(throws: LeagueRejection.self) { _ = try await club.store.sign(playerID: ann.playerID, in: club.round, by: ben) }
        #expect(refusal?.message == "Each player signs their own card; a coach can sign for a player without a phone.")
        let signed = try await club.store.sign(playerID: ann.playerID, in: club.round, by: ann)
        #expect(signed.signatures.map(\.playerID) == [ann.playerID])
        // Signing again changes nothing.
        #expect(try await club.store.sign(playerID: ann.playerID, in: club.round, by: ann).signatures.count == 1)
        _ = try await club.store.sign(playerID: ben.playerID, in: club.round, by: club.coach)
        #expect(Set(try await club.store.board(of: club.round).snapshot.signatures.map(\.playerID)) == [ann.playerID, ben.playerID])
    }

    @Test func aCardHoleNamesEachPlayerOnceAndCardsKeepTheirIDs() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Club(directory.url)
        let ann = club.fixture.players[0].id
        await #expect(throws: ScoreRejection.self) {
            _ = try await club.store.recordCardHole(
                [.init(playerID: ann, strokes: .count(3)), .init(playerID: ann, strokes: .count(4))],
                hole: 1, card: club.card.id, in: club.round, by: club.coach)
        }
        #expect(try await club.store.board(of: club.round).snapshot.events.isEmpty)

        try await club.hole(1, by: club.coach, [3, 3, 3])
        // Once scoring has begun, planning again would take every card away from its phones.
        await #expect(throws: LeagueRejection.self) { _ = try await club.store.planCards(of: club.round, shotgun: true, firstTee: nil) }
        // A card set again under the same name keeps its id (its page stays open).
        let renamed = Card(id: UUID(), name: club.card.name, startingHole: 3, playerIDs: club.card.playerIDs)
        let snapshot = try await club.store.setCards([renamed], of: club.round)
        #expect(snapshot.round.cards.map(\.id) == [club.card.id])
        #expect(snapshot.round.cards.first?.startingHole == 3)
        // Two cards under one name would share that id: refused.
        let twins = [
            Card(id: UUID(), name: "X", startingHole: 1, playerIDs: [club.fixture.players[0].id]),
            Card(id: UUID(), name: "x", startingHole: 2, playerIDs: [club.fixture.players[1].id]),
        ]
        await #expect(throws: LeagueRejection.self) { _ = try await club.store.setCards(twins, of: club.round) }
    }
}
