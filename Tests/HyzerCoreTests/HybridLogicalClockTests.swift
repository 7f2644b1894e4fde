import Foundation
import Testing

@testable import HyzerCore

@Suite struct HybridLogicalClockTests {
    let device = UUID()

    @Test func ticksStayMonotonicWhenTheWallClockGoesBack() {
        var clock = HybridClock(deviceID: device)
        let first = clock.tick(wallMillis: 10_000)
        let second = clock.tick(wallMillis: 9_000)
        let third = clock.tick(wallMillis: 9_000)
        #expect(first < second)
        #expect(second < third)
        #expect(third.wallMillis == 10_000)
        #expect(third.counter == 2)
    }

    @Test func receivingAReadingFromAFastDeviceOrdersLaterLocalEventsAfterIt() {
        var clock = HybridClock(deviceID: device)
        _ = clock.tick(wallMillis: 1_000)
        let remote = HLC(wallMillis: 50_000, counter: 7, deviceID: UUID())
        clock.receive(remote, wallMillis: 1_001)
        let next = clock.tick(wallMillis: 1_002)
        #expect(next > remote)
        #expect(next.deviceID == device)
    }

    @Test func textFormSortsLikeTheClockAndRoundTrips() {
        var readings: [HLC] = []
        var generator = SeededGenerator(state: 42)
        for _ in 0..<200 {
            readings.append(
                HLC(
                    wallMillis: Int64.random(in: 0...2_000_000_000_000, using: &generator),
                    counter: UInt32.random(in: 0...20, using: &generator), deviceID: UUID()))
        }
        #expect(readings.sorted() == readings.sorted { $0.description < $1.description })
        for reading in readings {
            #expect(HLC(reading.description) == reading)
        }
        #expect(HLC("not a clock") == nil)
        #expect(HLC("5-1-\(readings[0].deviceID.lowercasedText)") == HLC(wallMillis: 5, counter: 1, deviceID: readings[0].deviceID))
        for bad in [
            "-1-\(UUID().uuidString)", "1--\(UUID().uuidString)", "+1-1-\(UUID().uuidString)", "1-4294967296-\(UUID().uuidString)",
            "9223372036854775808-1-\(UUID().uuidString)",
            "18446744073709551616-1-\(UUID().uuidString)", "18446744073709551619-1-\(UUID().uuidString)", "1-42949672950-\(UUID().uuidString)",
            "1-1-\(UUID().uuidString)x", "1-1-",
        ] {
            #expect(HLC(bad) == nil, "\(bad)")
        }
        #expect(HLC("12-x-\(UUID().uuidString)") == nil)
    }

    @Test func textFormIsPaddedToFixedWidthsAndReadsBackAtTheExtremes() {
        let device = UUID()
        for (wall, counter) in [(Int64(0), UInt32(0)), (1_763_000_000_123, 7), (999_999_999_999_999, UInt32.max), (Int64.max, UInt32.max), (-5, 1)] {
            let reading = HLC(wallMillis: wall, counter: counter, deviceID: device)
            let wallText = String(wall)
            let countText = String(counter)
            let expected =
                String(repeating: "0", count: max(0, 15 - wallText.count)) + wallText + "-"
                + String(repeating: "0", count: max(0, 10 - countText.count)) + countText + "-" + device.uuidString
            #expect(reading.description == expected)
            if wall >= 0 { #expect(HLC(expected) == reading) }
        }
    }
}

@Suite struct UUIDTextTests {
    @Test func matchesFoundationBothWays() {
        for _ in 0..<500 {
            let id = UUID()
            #expect(id.lowercasedText == id.uuidString.lowercased())
            #expect(id.uppercasedText == id.uuidString)
            #expect(UUID(text: id.uuidString) == id)
            #expect(UUID(text: id.lowercasedText) == id)
        }
        for bad in [
            "", "not-a-uuid", String(repeating: "a", count: 36), "1b4e28ba-2fa1-11d2-883f-0016d3cca42", "1b4e28ba-2fa1-11d2-883f-0016d3cca4270",
            "1b4e28ba+2fa1-11d2-883f-0016d3cca427", "1b4e28ba-2fa1-11d2-883f-0016d3cca42g",
        ] {
            #expect(UUID(text: bad) == nil, "\(bad)")
        }
    }

    @Test func scoreEventPayloadsRoundTripAndReadFoundationJSON() throws {
        let event = ScoreEvent(
            id: UUID(), roundID: UUID(), playerID: UUID(), hole: 4, strokes: .count(3), reportedBy: UUID(), deviceID: UUID(), supersedes: UUID(),
            resolves: [UUID()], recordedAt: HLC(wallMillis: 5, counter: 1, deviceID: UUID()))
        let payload = ScoreEventPayload(event)
        let data = try RecordCoding.encode(payload)
        #expect(try RecordCoding.decode(ScoreEventPayload.self, data) == payload)
        // What the synthesized (Foundation) coding would write reads the same.
        struct Synthesized: Encodable {
            var id, roundID, playerID: UUID
            var hole: Int
            var strokes: Int?
            var dnf: Bool
            var reportedBy: UUID?
            var deviceID: UUID
            var supersedes: UUID?
            var resolves: [UUID]
        }
        let foundation = try RecordCoding.encode(
            Synthesized(
                id: event.id, roundID: event.roundID, playerID: event.playerID, hole: 4, strokes: 3, dnf: false, reportedBy: event.reportedBy,
                deviceID: event.deviceID, supersedes: event.supersedes, resolves: event.resolves))
        #expect(foundation == data)
    }
}
