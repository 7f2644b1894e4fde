import Foundation

@testable import HyzerCore

/// A small world to score in: an 18-hole course (par 3 except holes 5 and 12, par 4) and
/// four players in an active round.
struct World {
    let device = UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!
    let otherDevice = UUID(uuidString: "00000000-0000-0000-0000-00000000000B")!
    let course: Course
    let players: [Player]
    var round: Round
    var clock: HybridClock
    var wall: Int64 = 1_700_000_000_000

    init(playerCount: Int = 4) {
        let zero = HLC(wallMillis: 0, counter: 0, deviceID: UUID())
        course = Course(
            id: UUID(), name: "Maple Hill",
            holes: (1...18).map { Hole(number: $0, par: [5, 12].contains($0) ? 4 : 3) },
            createdAt: Date(), updatedAt: zero
        )
        let names = ["Ann", "Ben", "Cleo", "Dev", "Eve", "Finn"]
        players = (0..<playerCount).map { index in
            Player(
                id: UUID(), displayName: names[index % names.count] + (index >= names.count ? "\(index)" : ""),
                handle: Handle(trusted: "p\(index)"), role: .athlete, createdAt: Date(), updatedAt: zero)
        }
        round = Round(
            id: UUID(), name: "League night", courseID: course.id, playerIDs: players.map(\.id),
            status: .active, createdAt: Date(), updatedAt: zero)
        clock = HybridClock(deviceID: device)
    }

    mutating func event(_ player: Int, hole: Int, _ strokes: Strokes, supersedes: UUID? = nil, resolves: [UUID] = [], device: UUID? = nil)
        -> ScoreEvent
    {
        wall += 1000
        return ScoreEvent(
            id: UUID(), roundID: round.id, playerID: players[player].id, hole: hole, strokes: strokes,
            deviceID: device ?? self.device, supersedes: supersedes, resolves: resolves,
            recordedAt: clock.tick(wallMillis: wall)
        )
    }

    func standings(_ events: [ScoreEvent]) -> Standings {
        Standings.compute(course: course, round: round, players: players, events: events)
    }

    var names: [UUID: String] { Dictionary(uniqueKeysWithValues: players.map { ($0.id, $0.displayName) }) }

    mutating func decide(_ submission: ScoreSubmission, existing: [ScoreEvent]) -> Result<ScoreDecision, ScoreRejection> {
        wall += 1000
        return ScoreRules.decide(
            submission, round: round, course: course, playerName: { names[$0] }, existing: existing,
            newID: UUID(), deviceID: device, recordedAt: clock.tick(wallMillis: wall), isCoach: { _ in false })
    }
}
