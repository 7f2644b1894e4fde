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
            readings.append(HLC(wallMillis: Int64.random(in: 0...2_000_000_000_000, using: &generator),
                                counter: UInt32.random(in: 0...20, using: &generator), deviceID: UUID()))
        }
        #expect(readings.sorted() == readings.sorted { $0.description < $1.description })
        for reading in readings {
            #expect(HLC(reading.description) == reading)
        }
        #expect(HLC("not a clock") == nil)
        #expect(HLC("12-x-\(UUID().uuidString)") == nil)
    }
}
