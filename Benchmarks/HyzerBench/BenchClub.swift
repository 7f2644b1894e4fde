import Foundation
import HyzerCore

/// The club every data benchmark seeds: one 18-hole course, 200 players, and a clock that
/// stamps each record one millisecond after the last.
struct BenchClub {
    let device = UUID()
    private var clock: HybridClock
    private var wall = Date().millisecondsSince1970
    private(set) var course: Course
    private(set) var players: [Player] = []

    init() {
        clock = HybridClock(deviceID: device)
        // Stamped below, once the clock exists.
        course = Course(
            id: UUID(), name: "Bench Park", holes: (1...18).map { Hole(number: $0, par: 3) }, createdAt: Date(),
            updatedAt: HLC(wallMillis: 0, counter: 0, deviceID: device))
        course.updatedAt = stamp()
        for index in 0..<200 {
            players.append(
                Player(
                    id: UUID(), displayName: "Player \(index)", handle: Handle(trusted: "bench\(index)"), role: .athlete, createdAt: Date(),
                    updatedAt: stamp()))
        }
    }

    mutating func stamp() -> HLC {
        wall += 1
        return clock.tick(wallMillis: wall)
    }
}
