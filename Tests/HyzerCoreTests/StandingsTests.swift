import Foundation
import Testing

@testable import HyzerCore

@Suite struct StandingsTests {
    @Test func ranksByToParWithTiesAndCountsOnlyHolesPlayed() {
        var world = World()
        let events = [
            world.event(0, hole: 1, .count(2)),  // Ann -1
            world.event(1, hole: 1, .count(3)),  // Ben E after 2
            world.event(1, hole: 2, .count(3)),
            world.event(2, hole: 1, .count(3)),  // Cleo E after 1
        ]
        let standings = world.standings(events)
        let byName = Dictionary(uniqueKeysWithValues: standings.entries.map { ($0.displayName, $0) })
        #expect(standings.entries.map(\.displayName) == ["Ann", "Ben", "Cleo", "Dev"])
        #expect(standings.entries.map(\.position) == ["1", "T2", "T2", "–"])
        #expect(byName["Ann"]?.toPar == -1)
        #expect(byName["Ben"]?.thru == 2)
        #expect(byName["Ben"]?.strokes == 6)
        #expect(byName["Cleo"]?.toPar == 0)
        #expect(byName["Dev"]?.thru == 0)
    }

    @Test func positionsSkipAfterATie() {
        var world = World()
        let events = [
            world.event(0, hole: 1, .count(2)),
            world.event(1, hole: 1, .count(2)),
            world.event(2, hole: 1, .count(4)),
            world.event(3, hole: 1, .count(5)),
        ]
        #expect(world.standings(events).entries.map(\.position) == ["T1", "T1", "3", "4"])
    }

    @Test func dnfRanksLastWhateverTheScore() {
        var world = World()
        let events = [
            world.event(0, hole: 1, .count(2)),
            world.event(0, hole: 2, .dnf),
            world.event(1, hole: 1, .count(6)),
        ]
        let standings = world.standings(events)
        #expect(standings.entries.last?.displayName == "Ann")
        #expect(standings.entries.last?.dnf == true)
        #expect(standings.entries.last?.position == "DNF")
        #expect(standings.entries.first?.displayName == "Ben")
    }

    @Test func theCurrentScoreIsTheLeafOfTheChainNotTheNewest() {
        var world = World()
        let original = world.event(0, hole: 1, .count(5))
        let correction = world.event(0, hole: 1, .count(3), supersedes: original.id)
        // The original carries a later clock than the correction (a skewed device), yet
        // the correction still wins: it supersedes the original.
        var skewed = original
        skewed.recordedAt = HLC(wallMillis: correction.recordedAt.wallMillis + 60_000, counter: 0, deviceID: world.otherDevice)
        let standings = world.standings([skewed, correction])
        #expect(standings.entries.first { $0.displayName == "Ann" }?.strokes == 3)
        #expect(standings.conflicts.isEmpty)
    }

    @Test func twoLeavesAreAConflictWonByTheGreaterClockThenTheGreaterID() {
        var world = World()
        let original = world.event(0, hole: 3, .count(4))
        let onA = world.event(0, hole: 3, .count(3), supersedes: original.id)
        let onB = world.event(0, hole: 3, .count(5), supersedes: original.id, device: world.otherDevice)
        let standings = world.standings([original, onA, onB])
        #expect(standings.conflicts.count == 1)
        #expect(standings.conflicts[0].eventIDs == [onB.id, onA.id])
        #expect(standings.entries.first { $0.displayName == "Ann" }?.strokes == 5)

        // Same clock reading on both: the greater id wins.
        var twinA = onA
        var twinB = onB
        twinB.recordedAt = twinA.recordedAt
        twinA.id = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
        twinB.id = UUID(uuidString: "FFFFFFFF-0000-0000-0000-000000000001")!
        let tie = world.standings([original, twinA, twinB])
        #expect(tie.conflicts[0].eventIDs.first == twinB.id)
    }

    @Test func aCorrectionThatResolvesEveryLeafEndsTheConflict() {
        var world = World()
        let original = world.event(0, hole: 3, .count(4))
        let onA = world.event(0, hole: 3, .count(3), supersedes: original.id)
        let onB = world.event(0, hole: 3, .count(5), supersedes: original.id, device: world.otherDevice)
        let resolving = world.event(0, hole: 3, .count(3), supersedes: onB.id, resolves: [onA.id])
        let standings = world.standings([original, onA, onB, resolving])
        #expect(standings.conflicts.isEmpty)
        #expect(standings.entries.first { $0.displayName == "Ann" }?.strokes == 3)
    }

    @Test func standingsAreTheSameForEveryOrderOfTheSameEvents() {
        var world = World(playerCount: 6)
        var events: [ScoreEvent] = []
        var generator = SeededGenerator(state: 7)
        for player in 0..<6 {
            for hole in 1...18 where Int.random(in: 0..<10, using: &generator) < 8 {
                var current = world.event(
                    player, hole: hole, Int.random(in: 0..<30, using: &generator) == 0 ? .dnf : .count(Int.random(in: 2...6, using: &generator)))
                events.append(current)
                // Some corrections, and some concurrent corrections from another device.
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    let correction = world.event(player, hole: hole, .count(Int.random(in: 2...6, using: &generator)), supersedes: current.id)
                    events.append(correction)
                    if Int.random(in: 0..<2, using: &generator) == 0 {
                        events.append(
                            world.event(
                                player, hole: hole, .count(Int.random(in: 2...6, using: &generator)), supersedes: current.id,
                                device: world.otherDevice))
                    }
                    current = correction
                }
            }
        }
        let expected = world.standings(events)
        #expect(!expected.conflicts.isEmpty, "the generated history should contain conflicts")
        for seed in 1...200 {
            var shuffler = SeededGenerator(state: UInt64(seed))
            var shuffled = events.shuffled(using: &shuffler)
            // A retried delivery of the same event must not count twice.
            if let repeated = shuffled.randomElement(using: &shuffler) { shuffled.append(repeated) }
            #expect(world.standings(shuffled) == expected, "seed \(seed)")
            // Added in batches as they arrive (a cache's way) gives the same scores.
            var scores = CurrentScores(events: [])
            var rest = shuffled[...]
            while !rest.isEmpty {
                let size = Int.random(in: 1...40, using: &shuffler)
                scores.add(rest.prefix(size))
                rest = rest.dropFirst(size)
            }
            #expect(
                Standings.compute(course: world.course, round: world.round, players: world.players, scores: scores) == expected,
                "seed \(seed), in batches")
        }
    }

    @Test func leaderboardViewFormatsToParAndThru() {
        var world = World()
        var events: [ScoreEvent] = []
        for hole in 1...18 { events.append(world.event(0, hole: hole, .count(3))) }
        events.append(world.event(1, hole: 1, .count(4)))
        events.append(world.event(2, hole: 1, .count(2)))
        let view = LeaderboardView(standings: world.standings(events), roundName: "r", courseName: "c", status: .active, version: 3)
        let rows = Dictionary(uniqueKeysWithValues: view.rows.map { ($0.displayName, $0) })
        #expect(rows["Ann"]?.toPar == "-2")  // par 56, 54 strokes
        #expect(rows["Ann"]?.thru == "F")
        #expect(rows["Ben"]?.toPar == "+1")
        #expect(rows["Ben"]?.toParClass == "over")
        #expect(rows["Cleo"]?.toParClass == "under")
        #expect(rows["Dev"]?.thru == "–")
        #expect(ScoreFormat.toPar(0) == "E")
    }
}
