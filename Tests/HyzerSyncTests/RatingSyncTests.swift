import Foundation
import HyzerCore
import HyzerStore
import Testing

@testable import HyzerSync

/// Ratings are derived, never synced: an entered rating travels with its player, and the same
/// rounds give the same ratings on every device.
@Suite struct RatingSyncTests {
    @Test func theSameRoundsGiveTheSameRatingsOnEveryDevice() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url)
        let (round, players) = try await a.setUpRound(handles: ["ann", "ben", "cleo", "dev", "eve", "fay"])
        for (index, player) in players.enumerated() {
            _ = try await a.domain.setEnteredRating(player, to: 960 - index * 10, actor: nil)
            for hole in 1...9 { try await a.score(round, player, hole: hole, hole == 9 ? 3 + index % 2 : 3) }
        }
        _ = try await a.domain.setStatus(of: round, to: .completed)
        for device in [a, b, a] { await device.settle() }

        #expect(try await b.domain.player(players[0])?.enteredRating == 960)
        let onA = try #require(try await a.domain.clubRatings().rounds[round])
        let onB = try #require(try await b.domain.clubRatings().rounds[round])
        #expect(onA.result == onB.result && !onA.provisional)
        #expect(onA.result.ratings.count == 6 && onA.result.propagators.count >= 5)

        // The completed rounds' ratings are kept between reads; what they come from changing
        // rates them again: an entered rating (on the other device, synced over) …
        _ = try await b.domain.setEnteredRating(players[0], to: 1000, actor: nil)
        for device in [b, a] { await device.settle() }
        let raised = try #require(try await a.domain.clubRatings().rounds[round])
        #expect(raised.result.ssa != onA.result.ssa, "a higher propagator rating moves the SSA")
        // … and a score in a live round leaves them as they were, rating that round provisionally.
        let (live, newcomers) = try await a.setUpRound(handles: ["gus"])
        try await a.score(live, newcomers[0], hole: 1, 3)
        let after = try await a.domain.clubRatings()
        #expect(after.rounds[round]?.result == raised.result && after.rounds[live]?.provisional == true)
    }
}
