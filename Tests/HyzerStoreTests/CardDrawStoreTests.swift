import Foundation
import HyzerCore
import Testing

@testable import HyzerStore

/// Cards planned with a random draw: every player on one card, in the generator's order within
/// each division; without it, as registered (before a first round of the event).
@Suite struct CardDrawStoreTests {
    /// SplitMix64: a fixed sequence, so the draw is the same on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func aDrawCardsEveryoneOnceInTheDrawnOrder() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        let store = stores.domain
        let course = try await store.createCourse(CourseDraft(name: "Pine Loop", holeCount: "18").validated())
        var players: [UUID] = []
        for index in 0..<12 {
            players.append(try await store.createPlayer(PlayerDraft(displayName: "Player \(index)", handle: "p\(index)").validated(), by: nil).id)
        }
        let round = try await store.createRound(RoundDraft.Valid(name: "Night", courseID: course.id, playerIDs: players, startNow: true))
        let registered = try await store.planCards(of: round.id, shotgun: true, firstTee: nil).round.cards.flatMap(\.playerIDs)
        #expect(registered == players)
        var generator = Seeded(state: 42)
        let drawn = try await store.planCards(of: round.id, shotgun: true, firstTee: nil, draw: true, using: &generator).round.cards
        #expect(drawn.count == 3 && drawn.allSatisfy { $0.playerIDs.count == 4 })
        let order = drawn.flatMap(\.playerIDs)
        #expect(Set(order) == Set(players) && order.count == players.count)
        var same = Seeded(state: 42)
        #expect(order == CardPlanner.draw(players, using: &same), "the division drawn with the generator")
        #expect(order != players)
        var other = Seeded(state: 43)
        #expect(CardPlanner.draw(players, using: &other) != order, "another generator, another draw")
    }
}
