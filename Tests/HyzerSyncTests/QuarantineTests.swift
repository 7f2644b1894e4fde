import Foundation
import GRDB
import HyzerCore
import HyzerStore
import Logging
import Testing

@testable import HyzerSync

/// A pulled record this device cannot read is kept with its reason, never dropped: the rest
/// of the pull applies, a build that reads it applies it, an admin may dismiss it.
@Suite struct QuarantineTests {
    /// Writes a row into the embedded cloud as another device's build (or a damaged one)
    /// would, with the zone's next change number.
    static func writeRaw(_ path: String, type: String, id: String, hlc: String, payload: Data) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            let seq = (try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(seq), 0) FROM records WHERE zone = 'club'") ?? 0) + 1
            try db.execute(
                sql: "INSERT OR REPLACE INTO records (zone, type, id, hlc, payload, seq) VALUES ('club', ?, ?, ?, ?, ?)",
                arguments: [type, id, hlc, payload, seq])
        }
    }

    @Test func aRecordThatCannotBeReadIsKeptAndABuildThatReadsItAppliesIt() async throws {
        let scratch = try Scratch()
        let path = scratch.url.appendingPathComponent("cloud.sqlite").path
        let cloud = EmbeddedCloud(path: path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        var older = SyncEngine.Configuration()
        older.unknownTypes = [.feePayment]
        let b = try await Device("b", cloud: cloud, root: scratch.url, configuration: older)

        let night = try await a.domain.createEvent(EventDraft(name: "Week 1", divisions: ["MPO"]).validated(), createdBy: nil)
        let dee = try await a.domain.createPlayer(PlayerDraft(displayName: "Dee", handle: "dee").validated(), by: nil)
        _ = try await a.domain.checkIn(.player(dee.id), division: "MPO", paid: true, at: night.id, by: nil)
        let (round, players) = try await a.setUpRound()
        try await a.score(round, players[0], hole: 1, 3)
        await a.settle()
        let stamp = HLC(wallMillis: Int64(Date().timeIntervalSince1970 * 1000), counter: 0, deviceID: UUID()).description
        let damaged = UUID().lowercasedText
        try Self.writeRaw(path, type: "player", id: damaged, hlc: stamp, payload: Data("not json".utf8))
        try Self.writeRaw(path, type: "trophy", id: "trophy-3", hlc: stamp, payload: Data(#"{"tag":3}"#.utf8))

        await b.sync()
        // Everything readable arrived; what is not is kept, each with its reason.
        #expect(try await b.events(round).count == 1)
        #expect(try await b.domain.checkIns(of: night.id).count == 1)
        #expect(try await b.domain.feeLedger(of: night.id).isEmpty)
        let kept = Dictionary(uniqueKeysWithValues: try await b.domain.quarantined().map { ($0.record.type, $0.record) })
        #expect(Set(kept.keys) == ["feePayment", "player", "trophy"])
        #expect(kept["player"]?.reason == "Its payload is not JSON." && kept["player"]?.id == damaged)
        #expect(kept["trophy"]?.reason.contains("does not know the record type \"trophy\"") == true)
        #expect(kept["trophy"]?.payload == Data(#"{"tag":3}"#.utf8), "kept as the cloud had it")
        #expect(await b.engine.status().quarantined == 3)
        let log = try await b.stores.operational.recentLog(limit: 5)
        #expect(log.contains { $0.operation == "pull" && $0.message?.contains("3 kept unread") == true }, "\(log)")

        // The change token moved past them: pulling again keeps each once.
        await a.settle()
        await b.sync()
        #expect(try await b.domain.quarantineCount() == 3)

        // A build that knows fee payments starts on the same data: the payment applies.
        let upgraded = SyncEngine(stores: b.stores, cloud: cloud, logger: Logger(label: "test.upgraded"))
        #expect(await upgraded.applyQuarantined() == 1)
        #expect(try await b.domain.feeLedger(of: night.id).map(\.payment.paid) == [true])
        #expect(Set(try await b.domain.quarantined().map(\.record.type)) == ["player", "trophy"])
        #expect(await upgraded.applyQuarantined() == 0, "what it still cannot read stays")

        // An admin lets the unknown one go; the change log names it.
        let tag = try #require(try await b.domain.quarantined().first { $0.record.type == "trophy" })
        #expect(try await b.domain.dismissQuarantined(key: tag.key, by: nil))
        #expect(try await b.domain.dismissQuarantined(key: tag.key, by: nil) == false)
        #expect(try await b.domain.changeLog().contains { $0.record == "trophy trophy-3" && $0.change.contains("dismissed") })
        #expect(try await b.domain.quarantineCount() == 1)
    }

    /// The cloud's latest row of a record is its merged state: under first-writer-wins an
    /// older version arriving later is the one that stands, so it is what is kept.
    @Test func theLatestRowOfARecordIsTheOneKeptWhateverItsVersion() async throws {
        let scratch = try Scratch()
        let path = scratch.url.appendingPathComponent("cloud.sqlite").path
        let cloud = EmbeddedCloud(path: path)
        let b = try await Device("b", cloud: cloud, root: scratch.url)
        await b.sync()
        let device = UUID()
        let newer = HLC(wallMillis: 2_000_000_000_000, counter: 0, deviceID: device).description
        let older = HLC(wallMillis: 1_000_000_000_000, counter: 0, deviceID: device).description
        try Self.writeRaw(path, type: "trophy", id: "trophy-1", hlc: newer, payload: Data(#"{"v":1}"#.utf8))
        await b.sync()
        try Self.writeRaw(path, type: "trophy", id: "trophy-1", hlc: older, payload: Data(#"{"v":2}"#.utf8))
        await b.sync()
        let kept = try await b.domain.quarantined()
        #expect(kept.map(\.record.hlc) == [older] && kept.map(\.record.payload) == [Data(#"{"v":2}"#.utf8)])
        // A version that is no clock reading sorts above every real one as text: it must not
        // keep a later row out either.
        try Self.writeRaw(path, type: "trophy", id: "trophy-1", hlc: "zzz-not-a-clock", payload: Data("{}".utf8))
        await b.sync()
        try Self.writeRaw(path, type: "trophy", id: "trophy-1", hlc: newer, payload: Data(#"{"v":3}"#.utf8))
        await b.sync()
        #expect(try await b.domain.quarantined().map(\.record.hlc) == [newer])
    }

    @Test func aCloudWhoseChangeNumbersAreUsedUpRefusesInsteadOfTrapping() async throws {
        let scratch = try Scratch()
        let path = scratch.url.appendingPathComponent("cloud.sqlite").path
        let cloud = EmbeddedCloud(path: path)
        _ = await cloud.resolveAccount()
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(
                sql: "INSERT INTO records (zone, type, id, hlc, payload, seq) VALUES ('club', 'trophy', 'last', 'x', x'7B7D', ?)",
                arguments: [Int64.max])
        }
        let record = CloudRecord(type: .player, id: "p", hlc: HLC(wallMillis: 1, counter: 0, deviceID: UUID()), payload: Data("{}".utf8))
        await #expect(throws: CloudError.self) { _ = try await cloud.save([record], zone: "club") }
    }

    @Test func aReadableNewerVersionReleasesTheKeptOne() async throws {
        let scratch = try Scratch()
        let path = scratch.url.appendingPathComponent("cloud.sqlite").path
        let cloud = EmbeddedCloud(path: path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url)
        let dee = try await a.domain.createPlayer(PlayerDraft(displayName: "Dee", handle: "dee").validated(), by: nil)
        await a.settle()
        await b.sync()
        let id = dee.id.lowercasedText
        let original = try #require(
            try await DatabaseQueue(path: path).read { db in
                try Data.fetchOne(db, sql: "SELECT payload FROM records WHERE type = 'player' AND id = ?", arguments: [id])
            })
        func later(_ counter: UInt32) -> String {
            HLC(wallMillis: dee.updatedAt.wallMillis, counter: dee.updatedAt.counter + counter, deviceID: dee.updatedAt.deviceID).description
        }

        // A damaged newer version: kept, and the player stays as she was.
        try Self.writeRaw(path, type: "player", id: id, hlc: later(1), payload: Data("{\"id\": 7}".utf8))
        await b.sync()
        #expect(try await b.domain.quarantined().map(\.record.hlc) == [later(1)])
        #expect(try await b.domain.player(dee.id)?.displayName == "Dee")

        // A readable version newer still (another device fixed it): applied, the kept one let go.
        let renamed = String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\"Dee\"", with: "\"Dee Dee\"")
        try Self.writeRaw(path, type: "player", id: id, hlc: later(2), payload: Data(renamed.utf8))
        await b.sync()
        #expect(try await b.domain.player(dee.id)?.displayName == "Dee Dee")
        #expect(try await b.domain.quarantineCount() == 0)
    }
}
