import Foundation
import HyzerCore
import HyzerStore
import Testing

@testable import HyzerSync

/// One player checked in for the same night on two devices is one check-in everywhere: the
/// later one's division and fee.
@Suite struct CheckInSyncTests {
    @Test func aCheckInOnTwoDevicesConvergesToOne() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url)
        let night = try await a.domain.createEvent(EventDraft(name: "Week 1", divisions: ["MPO", "FPO"]).validated(), createdBy: nil)
        let ann = try await a.domain.createPlayer(PlayerDraft(displayName: "Ann", handle: "ann").validated(), by: nil)
        for device in [a, b] { await device.settle() }

        // Both desks check Ann in before either hears of the other; b's is the later.
        _ = try await a.domain.checkIn(.player(ann.id), division: "MPO", paid: false, at: night.id, by: nil)
        _ = try await b.domain.checkIn(.player(ann.id), division: "FPO", paid: true, at: night.id, by: nil)
        let walkUp = try await b.domain.checkIn(.walkUp(displayName: "Wally Walker", handle: nil), division: "MPO", paid: nil, at: night.id, by: nil)
        for device in [a, b, a] { await device.settle() }

        let onA = try await a.domain.checkIns(of: night.id)
        let onB = try await b.domain.checkIns(of: night.id)
        #expect(onA.map(\.checkIn) == onB.map(\.checkIn))
        #expect(onA.count == 2, "Ann once, and the walk-up")
        #expect(onA.first { $0.checkIn.playerID == ann.id }.map { ($0.checkIn.division, $0.checkIn.paid) }! == ("FPO", true))
        #expect(onA.contains { $0.checkIn.playerID == walkUp.checkIn.playerID && $0.handle == "wally.walker" })

        // The fee ledger is append-only: b's "paid" and a's later "not paid" are both on both desks.
        _ = try await a.domain.checkIn(.player(ann.id), division: nil, paid: false, at: night.id, by: nil)
        for device in [a, b, a] { await device.settle() }
        let ledgerA = try await a.domain.feeLedger(of: night.id).map(\.payment)
        #expect(ledgerA.map(\.paid) == [true, false])
        #expect(try await b.domain.feeLedger(of: night.id).map(\.payment) == ledgerA)

        // An undo on one desk takes the player off the night on the other too.
        try await a.domain.cancelCheckIn(of: ann.id, at: night.id, by: nil)
        for device in [a, b] { await device.settle() }
        #expect(try await b.domain.checkIns(of: night.id).map(\.checkIn.playerID) == [walkUp.checkIn.playerID])
    }
}
