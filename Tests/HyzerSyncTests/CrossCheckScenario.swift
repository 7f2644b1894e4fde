import Foundation
import HyzerCore
import HyzerStore
import Testing

@testable import HyzerSync

extension Scenarios {
    /// Two scorekeepers of one card score the same hole offline on their own devices with one
    /// difference: after sync both devices show the same single mismatch, naming who entered
    /// what; one keeper's correction on one device clears it on both. A signature made on one
    /// device locks the player's card on the other.
    static func scorekeepersCrossCheckAcrossDevices(_ cloud: any CloudDatabase, zone: String) async throws {
        let scratch = try Scratch()
        let (a, b) = try await pair(cloud, zone: zone, root: scratch.url)
        let (round, players) = try await a.setUpRound()
        let card = Card(id: UUID(), name: "Card 1", startingHole: 1, playerIDs: players)
        _ = try await a.domain.setCards([card], of: round)
        await a.settle()
        await b.settle()

        let ann = Identity(playerID: players[0], handle: "ann", displayName: "Ann", role: .athlete)
        let ben = Identity(playerID: players[1], handle: "ben", displayName: "Ben", role: .athlete)
        func hole(_ device: Device, _ keeper: Identity, _ strokes: [Int], hole: Int = 1) async throws {
            let entries = zip(players, strokes).map { DomainStore.CardEntry(playerID: $0, strokes: .count($1)) }
            _ = try await device.domain.recordCardHole(entries, hole: hole, card: card.id, in: round, by: keeper)
        }
        // Offline: neither device syncs between the two entries.
        try await hole(a, ann, [3, 3, 4])
        try await hole(b, ben, [3, 3, 5])
        await a.settle()
        await b.settle()
        await a.settle()

        let onA = try await a.standings(round)
        let onB = try await b.standings(round)
        #expect(onA == onB)
        #expect(onA.conflicts.map(\.playerID) == [players[2]])
        #expect(onA.conflicts.map(\.hole) == [1])
        let leaves = try await b.domain.snapshot(of: round).board.scores[players[2], 1]?.leaves ?? []
        #expect(Set(leaves.compactMap(\.reportedBy)) == [ann.playerID, ben.playerID])

        // Ben looks again and agrees with Ann: his correction of his own entry ends it.
        try await hole(b, ben, [3, 3, 4])
        await b.settle()
        await a.settle()
        let afterA = try await a.standings(round)
        let afterB = try await b.standings(round)
        #expect(afterA.conflicts.isEmpty && afterB.conflicts.isEmpty)
        #expect(afterA == afterB)
        #expect(afterA.entries.first { $0.playerID == players[2] }?.strokes == 4)

        // Ann finishes her card on A and signs; on B, Ben can no longer change her scores.
        for number in 2...9 { try await hole(a, ann, [3, 3, 3], hole: number) }
        _ = try await a.domain.sign(playerID: players[0], in: round, by: ann)
        await a.settle()
        await b.settle()
        await #expect(throws: ScoreRejection.signed("Ann")) {
            _ = try await b.domain.recordCardHole(
                [DomainStore.CardEntry(playerID: players[0], strokes: .count(2))], hole: 2, card: card.id, in: round, by: ben)
        }
        #expect(try await b.domain.snapshot(of: round).signatures.map(\.playerID) == [players[0]])
    }
}
