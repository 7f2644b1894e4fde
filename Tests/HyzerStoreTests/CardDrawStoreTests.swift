import Foundation
import HyzerCore
import Testing

@testable import HyzerStore

/// Cards planned with a random draw: every player on one card, in the generator's order within
/// each division; without it, as registered (before a first round of the event).
@Suite struct CardDrawStoreTests {

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
        var generator = SeededGenerator(state: 42)
        let drawn = try await store.planCards(of: round.id, shotgun: true, firstTee: nil, draw: true, using: &generator).round.cards
        #expect(drawn.count == 3 && drawn.allSatisfy { $0.playerIDs.count == 4 })
        let order = drawn.flatMap(\.playerIDs)
        #expect(Set(order) == Set(players) && order.count == players.count)
        var same = SeededGenerator(state: 42)
        #expect(order == CardPlanner.draw(players, using: &same), "the division drawn with the generator")
        #expect(order != players)
        var other = SeededGenerator(state: 43)
        #expect(CardPlanner.draw(players, using: &other) != order, "another generator, another draw")
    }
}
