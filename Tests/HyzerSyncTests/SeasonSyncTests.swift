import Foundation
import HyzerCore
import HyzerStore
import Testing

@testable import HyzerSync

/// A season and its league nights travel like every other record: the other device shows the
/// same rules and the same table.
@Suite struct SeasonSyncTests {
    @Test func aSeasonAndItsNightsReachTheOtherDeviceWithTheSameTable() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url)
        let season = try await a.domain.createSeason(
            SeasonDraft(name: "Summer league", startsOn: "2026-05-05", divisions: ["MPO"], rule: "table", table: [10, 7, 5], participation: 1)
                .validated(), createdBy: nil)
        let night = try await a.domain.createEvent(
            EventDraft(name: "Week 1", divisions: ["MPO"], seasonID: season.id.lowercasedText).validated(), createdBy: nil)
        let (round, players) = try await a.setUpRound(eventID: night.id, division: "MPO")
        try await a.score(round, players[0], hole: 1, 2)
        try await a.score(round, players[1], hole: 1, 4)
        for device in [a, b] { await device.settle() }

        let onB = try await b.domain.seasonSnapshot(season.id)
        // As sent (times travel to the millisecond).
        #expect(onB.season.name == season.name && onB.season.points == season.points && onB.season.divisions == season.divisions)
        #expect(onB.season.startsOn == "2026-05-05" && onB.season.updatedAt == season.updatedAt)
        #expect(onB.nights.map(\.event.id) == [night.id])
        let table = try await a.domain.seasonSnapshot(season.id).standings
        #expect(onB.standings == table)
        #expect(table.divisions.first?.entries.first?.points == 11, "first of three on the table (10) and a night played (1)")

        // Edited on b, removed (archived: it has a night) on a: both reach the other device.
        var draft = SeasonDraft(onB.season)
        draft.name = "Summer league 2026"
        _ = try await b.domain.editSeason(season.id, try draft.validated(), actor: nil)
        for device in [b, a] { await device.settle() }
        #expect(try await a.domain.seasons().map(\.name) == ["Summer league 2026"])
        #expect(try await a.domain.remove(.season, season.id, actor: nil) == .archived)
        for device in [a, b] { await device.settle() }
        #expect(try await b.domain.seasons().isEmpty)
        #expect(try await b.domain.seasonSnapshot(season.id).season.archived)
    }
}

/// A night's handicaps are frozen when its first round starts, travel as records, and two
/// devices that froze them differently keep the earlier freeze.
@Suite struct FrozenHandicapSyncTests {
    @Test func aNightsHandicapsStayAsFrozenAndTheEarlierFreezeWins() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url, clockOffset: 60)
        let season = try await a.domain.createSeason(
            SeasonDraft(name: "Summer", divisions: ["MPO"], placesBy: "net", handicap: "percentage", minimumRounds: 1).validated(), createdBy: nil)
        let first = try await a.domain.createEvent(
            EventDraft(name: "Week 1", divisions: ["MPO"], seasonID: season.id.lowercasedText).validated(), createdBy: nil)
        let (round1, players) = try await a.setUpRound(eventID: first.id, division: "MPO")
        let (ann, ben, cleo) = (players[0], players[1], players[2])
        for hole in 1...9 {
            try await a.score(round1, ann, hole: hole, 4)
            try await a.score(round1, ben, hole: hole, 3)
        }
        let second = try await a.domain.createEvent(
            EventDraft(name: "Week 2", divisions: ["MPO"], seasonID: season.id.lowercasedText).validated(), createdBy: nil)
        for device in [a, b, a] { await device.settle() }
        let course = try await a.domain.snapshot(of: round1).course.id

        // b corrects ann's first hole of week 1 (a 4 becomes a 2) while out of touch…
        let annFirst = try #require(try await b.events(round1).first { $0.playerID == ann && $0.hole == 1 })
        try await b.score(round1, ann, hole: 1, 2, correcting: annFirst.id)
        // …and both start a card of week 2: a froze ann at +9 on 9 holes (18.0), b at 14.0.
        func start(_ device: Device) async throws -> UUID {
            try await device.domain.createRound(
                RoundDraft.Valid(
                    name: "Week 2", courseID: course, playerIDs: players, startNow: true, eventID: second.id,
                    divisions: Dictionary(uniqueKeysWithValues: players.map { ($0, "MPO") }))
            ).id
        }
        _ = try await start(a)
        let onB = try await start(b)
        #expect(try await b.domain.seasonSnapshot(season.id).frozen[second.id]?[ann]??.value == 14)
        let early = try await b.domain.board(of: onB).standings.entries.first { $0.playerID == ann }
        #expect(early?.handicap == 7, "14 on 9 holes: \(String(describing: early))")
        for device in [a, b, a, b] { await device.settle() }

        for device in [a, b] {
            let snapshot = try await device.domain.seasonSnapshot(season.id)
            #expect(snapshot.frozen[second.id]?[ann]??.value == 18, "the earlier freeze (a's) stands on \(device.name)")
            #expect(snapshot.frozen[second.id]?[ben]??.value == 0)
            #expect(snapshot.frozen[second.id]?[cleo] == .some(nil), "cleo had no round: frozen as none")
            #expect(snapshot.handicaps[second.id]?[ann]?.strokes == 18)
            // The kept board of b's card shows the freeze that stood, not its own.
            #expect(try await device.domain.board(of: onB).standings.entries.first { $0.playerID == ann }?.handicap == 9)
            // The correction counts from the next night on.
            let history = try await device.domain.handicapHistory(of: ann)
            #expect(history.current?.value == 14)
            #expect(history.history.map(\.handicap.value) == [18])
        }
    }
}
