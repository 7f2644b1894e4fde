import Foundation
import HyzerCore
import HyzerStore
import Logging
import Testing

@testable import HyzerSync

/// Password hashes through a cloud: sealed with a cluster's key, opened by its other
/// instances; kept as they were where a sealed hash does not open (another secret, or none).
@Suite struct PasswordSealTests {
    static let hash = "$2b$04$abcdefghijklmnopqrstuu5s2v8.iAdzHyzerTestHashOnly01234"

    /// A device whose engine sees the cloud through `SealingCloud` with `keys` (nil: none).
    struct SealedDevice {
        let stores: Stores
        let engine: SyncEngine

        init(_ name: String, cloud: any CloudDatabase, root: URL, keys: ClusterKeys?) async throws {
            stores = try await Stores(directory: root.appendingPathComponent(name), cloudConfigured: true)
            var logger = Logger(label: "test.\(name)")
            logger.logLevel = .critical
            let sealing = SealingCloud(cloud, seal: PasswordSeal(keys: keys), stores: stores, zone: "club", logger: logger)
            engine = SyncEngine(stores: stores, cloud: sealing, logger: logger)
        }

        func sync() async {
            await engine.resolveAccount()
            await engine.pushPending()
            await engine.pullChanges()
        }
    }

    static func withCloud(_ body: (EmbeddedCloud, URL) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-seal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try await body(EmbeddedCloud(path: root.appendingPathComponent("cloud.sqlite").path), root)
    }

    static func rawPlayers(_ cloud: EmbeddedCloud) async throws -> [String] {
        try await cloud.changes(zone: "club", after: 0, limit: 1000).records.filter { $0.type == .player }.map {
            String(decoding: $0.payload, as: UTF8.self)
        }
    }

    @Test func aClusterSealsTheHashInTheCloudAndItsOtherInstanceSignsIn() async throws {
        try await Self.withCloud { cloud, root in
            let keys = try ClusterKeys(secret: "a cluster secret for sealing")
            let a = try await SealedDevice("a", cloud: cloud, root: root, keys: keys)
            let b = try await SealedDevice("b", cloud: cloud, root: root, keys: keys)
            let player = try await a.stores.domain.createAccount(
                PlayerDraft(displayName: "Ann Lee", handle: "ann.lee").validated(), passwordHash: Self.hash)
            await a.sync()
            let raw = try await Self.rawPlayers(cloud)
            #expect(raw.count == 1)
            #expect(raw.allSatisfy { !$0.contains("$2b$") && $0.contains(PasswordSeal.prefix) }, "\(raw)")
            await b.sync()
            #expect(try await b.stores.domain.player(player.id)?.passwordHash == Self.hash)
        }
    }

    @Test func devicesWithoutAClusterShareTheHashAsItIs() async throws {
        try await Self.withCloud { cloud, root in
            let a = try await SealedDevice("a", cloud: cloud, root: root, keys: nil)
            let b = try await SealedDevice("b", cloud: cloud, root: root, keys: nil)
            let player = try await a.stores.domain.createAccount(
                PlayerDraft(displayName: "Ann Lee", handle: "ann.lee").validated(), passwordHash: Self.hash)
            await a.sync()
            await b.sync()
            #expect(try await b.stores.domain.player(player.id)?.passwordHash == Self.hash)
        }
    }

    /// Another secret, or none: the record's other fields apply, the hash stays as it was here.
    @Test(arguments: [true, false]) func aHashThatDoesNotOpenLeavesTheLocalOneAndAppliesTheRest(otherSecret: Bool) async throws {
        try await Self.withCloud { cloud, root in
            let a = try await SealedDevice("a", cloud: cloud, root: root, keys: try ClusterKeys(secret: "the cluster's own secret"))
            let stranger = try await SealedDevice(
                "c", cloud: cloud, root: root, keys: otherSecret ? try ClusterKeys(secret: "another cluster's secret") : nil)
            let player = try await a.stores.domain.createAccount(
                PlayerDraft(displayName: "Ann Lee", handle: "ann.lee").validated(), passwordHash: Self.hash)
            await a.sync()
            await stranger.sync()
            let arrived = try #require(try await stranger.stores.domain.player(player.id))
            #expect(arrived.displayName == "Ann Lee")
            #expect(arrived.passwordHash == nil, "a hash that does not open was taken in")

            let local = "$2b$04$localhashlocalhashlocalhashlocalhashlocalhashlocalha"
            let set = try await stranger.stores.domain.setPassword(of: player.id, hash: local, actor: nil)
            try await waitForTheClock(toPass: set.updatedAt)
            _ = try await a.stores.domain.changeRole(of: player.id, to: .coach, actor: nil)
            await a.sync()
            await stranger.sync()
            let updated = try #require(try await stranger.stores.domain.player(player.id))
            #expect(updated.role == .coach, "the record's other fields did not apply")
            #expect(updated.passwordHash == local, "the hash this device had was replaced")
        }
    }

    @Test func aSealedHashIsBoundToItsPlayer() throws {
        let seal = PasswordSeal(keys: try ClusterKeys(secret: "a cluster secret for sealing"))
        let sealed = try seal.sealed(Self.hash, player: "player-one")
        #expect(seal.opened(sealed, player: "player-one") == Self.hash)
        #expect(seal.opened(sealed, player: "player-two") == nil)
        #expect(PasswordSeal(keys: nil).opened(sealed, player: "player-one") == nil)
        #expect(seal.opened(Self.hash, player: "player-one") == Self.hash)
    }

    /// The cluster id and every key come from a slow stretch of the secret, not one HMAC.
    @Test func theClusterIDIsNotAFastDigestOfTheSecret() throws {
        let keys = try ClusterKeys(secret: "guessable")
        #expect(keys.clusterID != keys.legacyClusterID)
        #expect(keys.clusterID.count == 16)
        // What a guess costs, in scrypt's own terms (a timed check would measure the machine):
        // 128 · r · N bytes of memory, at least 32 MiB per guess.
        #expect(128 * ClusterKeys.scryptBlockSize * ClusterKeys.scryptRounds >= 32 << 20)
    }
}
