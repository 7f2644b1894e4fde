import Foundation
import HyzerCore
import Testing

@testable import HyzerWeb

/// The contract lists some optional keys as always present: they are written as `null`, never
/// left out, and read back whether null or missing.
@Suite struct NullWhenNoneTests {
    func object(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONCoding.encoder.encode(value)) as? [String: Any])
    }

    @Test func aScoreEventWritesItsEmptyOptionalsAsNull() throws {
        let event = ScoreEvent(
            id: UUID(), roundID: UUID(), playerID: UUID(), hole: 3, strokes: .count(4), deviceID: UUID(),
            recordedAt: HLC(wallMillis: 1_700_000_000_000, counter: 0, deviceID: UUID()))
        let plain = try object(ScoreEventItem(event))
        #expect(plain["reportedBy"] is NSNull && plain["supersedes"] is NSNull)
        #expect(plain["current"] == nil, "current is left out where it means nothing")
        #expect(plain["hole"] as? Int == 3 && plain["strokes"] as? Int == 4)
        let listed = try object(ScoreEventItem(event, current: true))
        #expect(listed["current"] as? Bool == true)
    }

    @Test func aRoundNotStartedSaysNull() throws {
        let item = RoundListResponse.Item(id: "r", name: "League", courseName: "Park", status: "scheduled", startedAt: nil)
        #expect(try object(item)["startedAt"] is NSNull)
        let started = RoundListResponse.Item(id: "r", name: "League", courseName: "Park", status: "active", startedAt: Date(timeIntervalSince1970: 0))
        #expect(try object(started)["startedAt"] as? String == "1970-01-01T00:00:00Z")
    }

    @Test func nullOrMissingReadsAsNone() throws {
        struct Probe: Decodable { @NullWhenNone var value: Int? }
        #expect(try JSONDecoder().decode(Probe.self, from: Data(#"{"value": null}"#.utf8)).value == nil)
        #expect(try JSONDecoder().decode(Probe.self, from: Data(#"{}"#.utf8)).value == nil)
        #expect(try JSONDecoder().decode(Probe.self, from: Data(#"{"value": 7}"#.utf8)).value == 7)
    }
}
