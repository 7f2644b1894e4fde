import Foundation
import Testing

@testable import HyzerCore

@Suite struct CloudMergeTests {
    let a = UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!
    let b = UUID(uuidString: "00000000-0000-0000-0000-00000000000B")!

    func record(_ type: RecordType, wall: Int64, device: UUID, _ payload: String = "{}") -> CloudRecord {
        CloudRecord(type: type, id: "r1", hlc: HLC(wallMillis: wall, counter: 0, deviceID: device), payload: Data(payload.utf8))
    }

    @Test func scoreEventsAreInsertedOnlyIfAbsent() {
        let first = record(.scoreEvent, wall: 1, device: a, "first")
        #expect(CloudMerge.merge(existing: nil, incoming: first) == first)
        #expect(CloudMerge.merge(existing: first, incoming: record(.scoreEvent, wall: 9, device: b, "other")) == nil)
    }

    @Test func mutableRecordsAreLastWriterWinsWithTheDeviceBreakingTies() {
        for type in [RecordType.player, .course, .round] {
            let old = record(type, wall: 1, device: b)
            let new = record(type, wall: 2, device: a)
            #expect(CloudMerge.merge(existing: old, incoming: new) == new)
            #expect(CloudMerge.merge(existing: new, incoming: old) == nil)
            #expect(CloudMerge.merge(existing: new, incoming: new) == nil, "a retried push changes nothing")
            // Same wall time and counter: the greater device id wins, on every device.
            let fromA = record(type, wall: 5, device: a)
            let fromB = record(type, wall: 5, device: b)
            #expect(CloudMerge.merge(existing: fromA, incoming: fromB) == fromB)
            #expect(CloudMerge.merge(existing: fromB, incoming: fromA) == nil)
        }
    }

    @Test func aFrozenHandicapIsFirstWriterWins() {
        let early = record(.frozenHandicap, wall: 1, device: b)
        let late = record(.frozenHandicap, wall: 2, device: a)
        #expect(CloudMerge.merge(existing: late, incoming: early) == early)
        #expect(CloudMerge.merge(existing: early, incoming: late) == nil)
        #expect(CloudMerge.merge(existing: early, incoming: early) == nil, "a retried push changes nothing")
    }

    @Test func clubSettingsMergeFieldByField() throws {
        var onA = ClubSettingsPayload.defaults(deviceID: a)
        onA.clubName = StampedValue("Maple Hill", hlc: HLC(wallMillis: 10, counter: 0, deviceID: a))
        onA.publicURL = StampedValue("http://192.168.1.20:8080", hlc: HLC(wallMillis: 5, counter: 0, deviceID: a))
        var onB = ClubSettingsPayload.defaults(deviceID: b)
        onB.tvPageSeconds = StampedValue(20, hlc: HLC(wallMillis: 20, counter: 0, deviceID: b))
        let stored = CloudRecord(type: .clubSettings, id: ClubSettingsPayload.sentinelID, hlc: onA.newest, payload: try RecordCoding.encode(onA))
        let incoming = CloudRecord(type: .clubSettings, id: ClubSettingsPayload.sentinelID, hlc: onB.newest, payload: try RecordCoding.encode(onB))
        let merged = try #require(CloudMerge.merge(existing: stored, incoming: incoming))
        let settings = try RecordCoding.decode(ClubSettingsPayload.self, merged.payload)
        #expect(settings.clubName.value == "Maple Hill")
        #expect(settings.tvPageSeconds.value == 20)
        #expect(settings.publicAddress == "http://192.168.1.20:8080", "a field only one side has is kept")
        #expect(merged.hlc == onB.tvPageSeconds.hlc)
        #expect(CloudMerge.merge(existing: merged, incoming: incoming) == nil, "merging again changes nothing")
    }

    @Test func malformedRemoteRecordsAreRefusedWithTheirReason() throws {
        let hlc = HLC(wallMillis: 1, counter: 0, deviceID: a)
        let event = ScoreEvent(id: UUID(), roundID: UUID(), playerID: UUID(), hole: 3, strokes: .count(4), deviceID: a, recordedAt: hlc)
        let good = CloudRecord(type: .scoreEvent, id: event.id.lowercasedText, hlc: hlc, payload: try RecordCoding.encode(ScoreEventPayload(event)))
        func reason(_ record: CloudRecord) -> String? {
            do {
                _ = try RemoteChange.read(record)
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(reason(good) == nil)
        var wrongID = good
        wrongID.id = UUID().lowercasedText
        #expect(reason(wrongID)?.contains("describes another record") == true, "a payload must describe its own record")
        var outOfRange = ScoreEventPayload(event)
        outOfRange.strokes = 200
        let broken = CloudRecord(type: .scoreEvent, id: good.id, hlc: hlc, payload: try RecordCoding.encode(outOfRange))
        #expect(reason(broken)?.contains("breaks the domain's rules") == true)
        #expect(reason(CloudRecord(type: .player, id: "x", hlc: hlc, payload: Data("not json".utf8))) == "Its payload is not JSON.")
        #expect(reason(CloudRecord(type: .player, id: "x", hlc: hlc, payload: Data("{}".utf8)))?.contains("lacks the field") == true)
        #expect(reason(CloudRecord(type: .clubSettings, id: "another-settings", hlc: hlc, payload: Data())) != nil)
    }

    @Test func aRowOfAnUnknownTypeOrVersionIsKeptUnread() {
        let hlc = HLC(wallMillis: 1, counter: 0, deviceID: a).description
        let payload = Data("{}".utf8)
        guard case .failure(let newer) = UnreadableRecord.read(type: "trophy", id: "t1", hlc: hlc, payload: payload) else {
            Issue.record("a type this build does not know is not read")
            return
        }
        #expect(newer.type == "trophy" && newer.payload == payload && newer.reason.contains("newer version"))
        guard case .failure(let forgotten) = UnreadableRecord.read(type: "player", id: "p", hlc: hlc, payload: payload, unknown: [.player]) else {
            Issue.record("a type treated as unknown is not read")
            return
        }
        #expect(forgotten.reason == newer.reason.replacingOccurrences(of: "trophy", with: "player"))
        guard case .failure(let badClock) = UnreadableRecord.read(type: "player", id: "p", hlc: "yesterday", payload: payload) else {
            Issue.record("an unreadable version is not read")
            return
        }
        #expect(badClock.reason.contains("not a clock reading"))
        guard case .success(let record) = UnreadableRecord.read(type: "player", id: "p", hlc: hlc, payload: payload) else {
            Issue.record("a readable row is read")
            return
        }
        #expect(record.type == .player && record.hlc.description == hlc)
    }

    @Test func backoffGrowsIsCappedAndJittered() {
        #expect(Backoff.delay(attempt: 1, jitter: 1) == 1)
        #expect(Backoff.delay(attempt: 4, jitter: 1) == 8)
        #expect(Backoff.delay(attempt: 4, jitter: 0) == 4)
        #expect(Backoff.delay(attempt: 40, jitter: 1) == 300)
    }
}
