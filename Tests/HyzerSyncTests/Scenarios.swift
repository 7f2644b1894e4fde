import Foundation
import HyzerCore
import HyzerStore
import Testing

@testable import HyzerSync

/// Scenarios every cloud must pass; each backend's suite runs them against a real cloud.
enum Scenarios {
    /// Two devices on one cloud zone, each with its own folder under `root`.
    static func pair(_ cloud: any CloudDatabase, zone: String, root: URL) async throws -> (Device, Device) {
        var configuration = SyncEngine.Configuration()
        configuration.zone = zone
        return (
            try await Device("a", cloud: cloud, root: root, configuration: configuration),
            try await Device("b", cloud: cloud, root: root, configuration: configuration)
        )
    }

    /// A score on A appears on B; a correction on B appears on A; concurrent corrections of
    /// one hole end as the same visible conflict with the same winner on both.
    static func twoDevicesConverge(_ cloud: any CloudDatabase, zone: String) async throws {
        let scratch = try Scratch()
        let (a, b) = try await pair(cloud, zone: zone, root: scratch.url)

        let (round, players) = try await a.setUpRound()
        let first = try await a.score(round, players[0], hole: 1, 3)
        await a.sync()
        await b.sync()
        #expect(try await b.events(round).map(\.id) == [first.id])
        #expect(try await b.standings(round) == a.standings(round))

        let corrected = try await b.score(round, players[0], hole: 1, 2, correcting: first.id)
        await b.sync()
        await a.sync()
        #expect(try await a.standings(round).entries.first { $0.playerID == players[0] }?.strokes == 2)
        #expect(Set(try await a.events(round).map(\.id)) == [first.id, corrected.id])

        // Both correct hole 1 apart, then both sync: one conflict, one winner, everywhere.
        let onA = try await a.score(round, players[0], hole: 1, 4, correcting: corrected.id)
        let onB = try await b.score(round, players[0], hole: 1, 5, correcting: corrected.id)
        await a.sync()
        await b.sync()
        await a.sync()
        let standingsA = try await a.standings(round)
        let standingsB = try await b.standings(round)
        #expect(standingsA == standingsB)
        #expect(standingsA.conflicts.count == 1)
        let winner = ScoreEvent.winsOver(onA, onB) ? onA : onB
        #expect(standingsA.conflicts.first?.eventIDs.first == winner.id)
        #expect(Set(standingsA.conflicts.first?.eventIDs ?? []) == [onA.id, onB.id])

        // Resolving on B clears the conflict on both.
        _ = try await b.score(round, players[0], hole: 1, 3, correcting: winner.id)
        await b.sync()
        await a.sync()
        #expect(try await a.standings(round).conflicts.isEmpty)
        #expect(try await a.standings(round) == b.standings(round))
    }

    /// Scores made on both devices while the cloud is down are kept, and converge with
    /// nothing lost or duplicated once it is back.
    static func offlineDevicesConverge(_ cloud: any CloudDatabase, zone: String, goDown: () async throws -> Void, comeBack: () async throws -> Void)
        async throws
    {
        let scratch = try Scratch()
        let (a, b) = try await pair(cloud, zone: zone, root: scratch.url)
        let (round, players) = try await a.setUpRound()
        await a.sync()
        await b.sync()

        try await goDown()
        for hole in 1...4 {
            try await a.score(round, players[0], hole: hole, 3)
            try await b.score(round, players[1], hole: hole, 4)
        }
        await a.sync()
        await b.sync()
        #expect(await a.engine.status().state == .offline)
        #expect(await a.engine.status().account == .temporarilyUnavailable)
        #expect(await a.engine.status().counts.pending == 4)
        #expect(try await a.events(round).count == 4, "scoring works offline")

        try await comeBack()
        await a.sync()
        await b.sync()
        await a.sync()
        let eventsA = try await a.events(round)
        let eventsB = try await b.events(round)
        #expect(eventsA.count == 8)
        #expect(Set(eventsA.map(\.id)) == Set(eventsB.map(\.id)))
        #expect(try await a.standings(round) == b.standings(round))
        #expect(await a.engine.status().state == .idle)
        #expect(await a.engine.status().counts.pending == 0)
        #expect(try await cloud.changeCount(zone: zone, after: 0) == 1 + 3 + 1 + 1 + 8, "settings, players, course, round, events: each once")
    }
}
