import Foundation
import HyzerCore
import HyzerStore
import Testing

@testable import HyzerSync

/// The same person created on two devices while they were offline (one handle, two ids)
/// becomes one identity once they sync: the same canonical player everywhere, the other kept
/// as an alias, and every score counted for the canonical player.
@Suite struct IdentityMergeTests {
    @Test func onePersonCreatedOnTwoOfflineDevicesConvergesWithNoScoreLost() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url)

        // Apart: each device creates "sam" and scores a round.
        let (roundA, playersA) = try await a.setUpRound(handles: ["sam", "ann"])
        for (hole, strokes) in [(1, 3), (2, 4), (3, 3)] { try await a.score(roundA, playersA[0], hole: hole, strokes) }
        try await a.score(roundA, playersA[1], hole: 1, 2)
        let (roundB, playersB) = try await b.setUpRound(handles: ["sam", "ben"])
        for (hole, strokes) in [(1, 5), (2, 5)] { try await b.score(roundB, playersB[0], hole: hole, strokes) }
        let samA = playersA[0]
        let samB = playersB[0]
        let canonical = try #require(IdentityMerge.canonical(of: [samA, samB]))

        for device in [a, b, a, b] { await device.sync() }

        for device in [a, b] {
            let sams = try await device.domain.users().filter { $0.player.handle.value == "sam" }
            #expect(sams.count == 1, "\(device.name) lists sam once")
            #expect(sams.first?.player.id == canonical, "\(device.name)")
            #expect(sams.first?.aliases.map(\.id) == [canonical == samA ? samB : samA], "\(device.name)")
            // Either id now means the same person.
            #expect(try await device.domain.player(samA)?.id == canonical)
            #expect(try await device.domain.player(samB)?.id == canonical)
        }
        for round in [roundA, roundB] {
            let onA = try await a.standings(round)
            let onB = try await b.standings(round)
            #expect(onA == onB, "round standings are identical on both devices")
            #expect(onA.entries.contains { $0.playerID == canonical })
            #expect(!onA.entries.contains { $0.playerID == (canonical == samA ? samB : samA) })
        }
        let samOnA = try #require(try await a.standings(roundA).entries.first { $0.playerID == canonical })
        #expect(samOnA.strokes == 10 && samOnA.thru == 3)
        let samOnB = try #require(try await b.standings(roundB).entries.first { $0.playerID == canonical })
        #expect(samOnB.strokes == 10 && samOnB.thru == 2)
        // Every event survives, on both devices, as recorded.
        for device in [a, b] {
            #expect(try await device.events(roundA).count == 4, "\(device.name)")
            #expect(try await device.events(roundB).count == 2, "\(device.name)")
        }

        // After the merge, a score for sam by the old id on B lands on the canonical player.
        try await b.score(roundA, samB, hole: 4, 3)
        for device in [b, a] { await device.sync() }
        let after = try #require(try await a.standings(roundA).entries.first { $0.playerID == canonical })
        #expect(after.thru == 4 && after.strokes == 13)
    }
}

@Suite struct CloudIdentityTests {
    @Test func playersGetOneStableCloudNamePerPersonOnceTheAccountIsAvailable() async throws {
        let scratch = try Scratch()
        let cloud = FaultyCloud(EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path))
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url)
        let (_, playersA) = try await a.setUpRound(handles: ["sam", "ann"])
        let (_, playersB) = try await b.setUpRound(handles: ["sam", "ben"])

        // Unreachable: nothing is associated, and each player keeps working with its local id.
        cloud.unreachable = true
        await a.engine.resolveAccount()
        #expect(await a.engine.associateIdentities() == 0)
        #expect(try await a.domain.playersWithoutCloudIdentity().count == 2)

        // Reachable again: every local player is associated, one name per handle everywhere.
        cloud.unreachable = false
        for device in [a, b] {
            await device.engine.resolveAccount()
            #expect(await device.engine.associateIdentities() == 2, "\(device.name)")
        }
        let samOnA = try #require(try await a.domain.player(playersA[0])?.cloudRecordName)
        let samOnB = try #require(try await b.domain.player(playersB[0])?.cloudRecordName)
        #expect(samOnA == samOnB)
        #expect(try await a.domain.player(playersA[1])?.cloudRecordName != samOnA)
        // Idempotent: nothing left to associate, no call.
        #expect(await a.engine.associateIdentities() == 0)

        // After syncing, each device associates the other's records too, with the same names,
        // and the association survives pulls of records that arrive without one.
        for device in [a, b, a, b] { await device.sync() }
        for device in [a, b] {
            #expect(try await device.domain.playersWithoutCloudIdentity().isEmpty, "\(device.name)")
            #expect(try await device.domain.player(playersA[0])?.cloudRecordName == samOnA, "\(device.name)")
            #expect(try await device.domain.player(playersB[0])?.cloudRecordName == samOnA, "\(device.name)")
        }
    }
}
