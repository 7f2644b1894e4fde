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
    }
}
