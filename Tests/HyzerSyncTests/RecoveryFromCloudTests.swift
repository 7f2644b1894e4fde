import Foundation
import HyzerCore
import Testing

@testable import HyzerStore
@testable import HyzerSync

/// A damaged `domain.sqlite` on a device with a cloud: nothing is lost. What the newest
/// backup has comes from it; what was pushed since comes back from the cloud.
@Suite struct RecoveryFromCloudTests {
    enum Damage: String, CaseIterable { case truncatedToHalf, garbageHeader }

    static func damage(_ file: URL, _ damage: Damage) throws {
        var bytes = try Data(contentsOf: file)
        switch damage {
        case .truncatedToHalf: bytes = bytes.prefix(bytes.count / 2)
        case .garbageHeader: bytes.replaceSubrange(0..<100, with: Data(repeating: 0x5A, count: 100))
        }
        try bytes.write(to: file)
    }

    /// Scores a round on device a, backs up (or not) halfway, pushes everything, and returns
    /// the round and every event as a held them.
    static func scoreAndPush(_ cloud: EmbeddedCloud, root: URL, backUp: Bool) async throws -> (UUID, Set<ScoreEvent>) {
        let a = try await Device("a", cloud: cloud, root: root)
        let (round, players) = try await a.setUpRound()
        for player in players { try await a.score(round, player, hole: 1, 3) }
        await a.sync()
        if backUp { _ = try await a.stores.createBackup() }
        for player in players { try await a.score(round, player, hole: 2, 4) }
        await a.sync()
        #expect(try await a.stores.outbox.counts().pending == 0)
        return (round, Set(try await a.events(round)))
    }

    @Test(arguments: Damage.allCases)
    func fromTheNewestBackupThenTheCloud(_ damage: Damage) async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let (round, expected) = try await Self.scoreAndPush(cloud, root: scratch.url, backUp: true)
        try Self.damage(scratch.url.appendingPathComponent("a/domain.sqlite"), damage)

        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let recovery = try #require(a.stores.recovery)
        #expect(recovery.backup != nil)
        #expect(a.stores.isRefilling, "nothing is served before the refill")
        // The backup has the first hole only.
        #expect(try await a.events(round).count == 3)
        await a.sync()
        #expect(!a.stores.isRefilling)
        #expect(Set(try await a.events(round)) == expected)
        #expect(try await a.stores.operational.storeEvents().first?.kind == .recoveredDomain)
    }

    @Test func fromTheCloudAloneWithoutABackup() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let (round, expected) = try await Self.scoreAndPush(cloud, root: scratch.url, backUp: false)
        try Self.damage(scratch.url.appendingPathComponent("a/domain.sqlite"), .garbageHeader)

        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let recovery = try #require(a.stores.recovery)
        #expect(recovery.backup == nil)
        #expect(recovery.needsCloudRefill)
        await a.sync()
        #expect(Set(try await a.events(round)) == expected)
        #expect(try await a.domain.players().count == 3)
    }

    @Test func aRestoreBringsBackTheCloudsNewerRecordsByPull() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url)
        let (round, players) = try await a.setUpRound()
        try await a.score(round, players[0], hole: 1, 3)
        await a.sync()
        let backup = try await a.stores.createBackup()
        // After the backup: a score here (pushed) and one from another device.
        try await a.score(round, players[1], hole: 1, 4)
        await a.sync()
        await b.sync()
        try await b.score(round, players[2], hole: 1, 5)
        await b.sync()

        _ = try await a.stores.restore(from: a.stores.backups.archive(backup.id))
        #expect(try await a.events(round).count == 1)
        await a.sync()
        #expect(try await a.events(round).count == 3, "every record newer in the cloud came back by pull")
        await b.sync()
        #expect(Set(try await b.events(round)) == Set(try await a.events(round)))
    }
}
