import Foundation
import HyzerCore
import Testing

@testable import HyzerStore

/// The board a round's pages are drawn from is kept between reads and brought up to date
/// from what changed (`BoardCache`). After every kind of change it must equal the board read
/// from scratch, field by field: a change the cache misses is a stale leaderboard on the TV.
@Suite struct BoardCacheTests {
    /// The kept board and one built from a fresh read of the round, compared field by field.
    func expectKeptEqualsFresh(_ store: DomainStore, _ roundID: UUID, after change: String) async throws {
        let kept = try await store.board(of: roundID)
        let fresh = RoundBoard(try await store.snapshot(of: roundID))
        #expect(kept.version == fresh.version, "version after \(change)")
        #expect(kept.snapshot.round == fresh.snapshot.round, "round after \(change)")
        #expect(kept.snapshot.course == fresh.snapshot.course, "course after \(change)")
        #expect(Set(kept.snapshot.players) == Set(fresh.snapshot.players), "players after \(change)")
        #expect(kept.snapshot.event == fresh.snapshot.event, "event after \(change)")
        #expect(Set(kept.snapshot.signatures) == Set(fresh.snapshot.signatures), "signatures after \(change)")
        #expect(kept.snapshot.reporterNames == fresh.snapshot.reporterNames, "reporter names after \(change)")
        #expect(kept.snapshot.events == fresh.snapshot.events, "score events after \(change)")
        #expect(kept.standings == fresh.standings, "standings after \(change)")
        #expect(kept.leaderboard == fresh.leaderboard, "leaderboard after \(change)")
        #expect(kept.scorecard == fresh.scorecard, "scorecard after \(change)")
    }

    /// A season's night too: its writes read the season's boards inside the write (to freeze
    /// handicaps), before the commit moves any count (#37: a reopened night stayed completed).
    @Test(arguments: [false, true]) func theKeptBoardEqualsAFreshOneAfterEveryKindOfChange(inASeason: Bool) async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        let store = stores.domain
        let course = try await store.createCourse(CourseDraft(name: "Pine Loop", holeCount: "9").validated())
        var players: [Player] = []
        for handle in ["ann", "ben", "cleo", "dee"] {
            players.append(try await store.createPlayer(PlayerDraft(displayName: handle.capitalized, handle: handle).validated(), by: nil))
        }
        let season =
            inASeason
            ? try await store.createSeason(
                SeasonDraft(name: "Summer league", startsOn: "2026-05-05", divisions: ["MPO", "FPO"], rule: "table", table: [10, 7, 5]).validated(),
                createdBy: nil) : nil
        let event = try await store.createEvent(
            EventDraft(name: "League Night", divisions: ["MPO", "FPO"], seasonID: season?.id.lowercasedText).validated())
        let round = try await store.createRound(
            RoundDraft.Valid(
                name: "League", courseID: course.id, playerIDs: players.prefix(3).map(\.id), startNow: true, eventID: event.id,
                divisions: [players[0].id: "MPO", players[1].id: "FPO", players[2].id: "MPO"]))
        let coach = Identity(playerID: UUID(), handle: "coach", displayName: "Coach", role: .coach)
        func identity(_ index: Int) -> Identity {
            Identity(playerID: players[index].id, handle: players[index].handle.value, displayName: players[index].displayName, role: .athlete)
        }
        // Each change is made after the board was read (so kept), then compared.
        func change(_ name: String, _ make: () async throws -> Void) async throws {
            _ = try await store.board(of: round.id)
            try await make()
            try await expectKeptEqualsFresh(store, round.id, after: name)
        }

        try await change("cards planned") {
            _ = try await store.planCards(of: round.id, shotgun: true, firstTee: nil)
        }
        try await change("a score") {
            _ = try await store.recordScore(ScoreSubmission(playerID: players[0].id, hole: 1, strokes: .count(3)), in: round.id, by: coach)
        }
        try await change("a correction") {
            let first = try #require(try await store.board(of: round.id).scores[players[0].id, 1]?.winner)
            _ = try await store.recordScore(
                ScoreSubmission(playerID: players[0].id, hole: 1, strokes: .count(4), supersedes: first.id), in: round.id, by: coach)
        }
        try await change("a player renamed") {
            _ = try await store.editPlayer(players[0].id, displayName: "Annie", handle: nil, actor: nil)
        }
        let card = try #require(try await store.snapshot(of: round.id).round.cards.first { $0.playerIDs.contains(players[1].id) })
        try await change("holes entered on a card") {
            for hole in course.holes.map(\.number) where hole != 3 {
                _ = try await store.recordCardHole(
                    card.playerIDs.map { DomainStore.CardEntry(playerID: $0, strokes: .count(3)) }, hole: hole, card: card.id, in: round.id,
                    by: coach)
            }
        }
        try await change("entries from a phone's outbox") {
            let entries = card.playerIDs.map { DomainStore.CardScoreEntry(id: UUID(), playerID: $0, hole: 3, strokes: .count(2)) }
            _ = try await store.recordCardEntries(entries, card: card.id, in: round.id, author: coach.playerID, by: coach)
        }
        try await change("a signature") {
            _ = try await store.sign(playerID: players[1].id, in: round.id, by: identity(1))
        }
        try await change("the club's settings") {
            _ = try await store.updateClubSettings(clubName: "Pine Loop DGC", tvPageSeconds: 20)
        }
        try await change("a par corrected") {
            let holes = course.holes.map { Hole(number: $0.number, par: $0.number == 1 ? 4 : $0.par, distance: $0.distance) }
            _ = try await store.editCourse(course.id, name: "Pine Loop Long", holes: holes, actor: nil)
        }
        try await change("the event's divisions") {
            _ = try await store.editEvent(event.id, name: "Thursday League", divisions: ["FPO", "MPO", "MA3"], actor: nil)
        }
        try await change("a late arrival") {
            _ = try await store.addPlayer(players[3].id, division: "MA3", card: nil, to: round.id, actor: nil)
        }
        try await change("a withdrawal") {
            _ = try await store.withdraw(players[2].id, from: round.id, actor: nil)
        }
        try await change("the round renamed") {
            _ = try await store.renameRound(round.id, to: "League, week 2", actor: nil)
        }
        try await change("the round completed") {
            _ = try await store.setStatus(of: round.id, to: .completed)
        }
        try await change("the round reopened") {
            _ = try await store.reopen(round.id, actor: nil)
        }
    }
}
