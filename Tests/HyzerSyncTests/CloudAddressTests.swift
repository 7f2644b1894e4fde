import Foundation
import HyzerCore
import Testing

@testable import HyzerSync

@Suite struct CloudAddressTests {
    @Test func readsTheThreeKindsOfCloud() throws {
        #expect(try CloudAddress.parse("none") == .none)
        #expect(try CloudAddress.parse("sqlite:data/cloud.sqlite") == .sqlite(path: "data/cloud.sqlite"))
        guard case .postgres(let address) = try CloudAddress.parse("postgres://hyzer:secret@db.local:6543/club") else {
            Issue.record("expected postgres")
            return
        }
        #expect(address == .init(host: "db.local", port: 6543, username: "hyzer", password: "secret", database: "club"))
        guard case .postgres(let defaults) = try CloudAddress.parse("postgresql://hyzer@db.local") else {
            Issue.record("expected postgres")
            return
        }
        #expect(defaults.port == 5432)
        #expect(defaults.password == nil)
        #expect(!"\(try CloudAddress.parse("postgres://hyzer:secret@db.local/club"))".contains("secret"), "descriptions never show the password")
    }

    @Test(arguments: ["sqlite:", "postgres://db.local/club", "postgres://", "mysql://x@y/z", "cloud.sqlite"])
    func refusesAnythingElseWithAMessage(text: String) {
        #expect(throws: CloudAddressError.self) { try CloudAddress.parse(text) }
    }
}

@Suite struct RemoteInputTests {
    @Test func aMalformedCloudRecordIsSkippedAndThePullGoesOn() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let (round, players) = try await a.setUpRound()
        try await a.score(round, players[0], hole: 1, 3)
        await a.sync()
        let junk = CloudRecord(
            type: .scoreEvent, id: UUID().lowercasedText, hlc: HLC(wallMillis: 1, counter: 0, deviceID: UUID()),
            payload: Data("{\"strokes\": 500}".utf8))
        _ = try await cloud.save([junk], zone: "club")
        try await a.score(round, players[1], hole: 1, 4)
        await a.sync()

        let b = try await Device("b", cloud: cloud, root: scratch.url)
        await b.sync()
        #expect(try await b.events(round).count == 2, "both real scores arrive; the junk is skipped")
        #expect(try await b.stores.operational.changeToken(zone: "club") == (try await cloud.changes(zone: "club", after: 0, limit: 100)).token)
        #expect(await b.engine.status().state == .idle)
    }
}
