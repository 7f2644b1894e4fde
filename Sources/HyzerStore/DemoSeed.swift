import Foundation
import GRDB
import HyzerCore

/// What the demo is made of, so that "Remove the demo data" finds exactly it.
enum DemoSeed {
    static let courseName = "Maple Hill DGC"
    static let roundName = "Tuesday League"
    static let people = [
        ("Ann Lee", "ann"), ("Ben Ortiz", "ben"), ("Cleo Park", "cleo"), ("Dev Shah", "dev"), ("Eve Novak", "eve"), ("Finn Moss", "finn"),
    ]
}

extension DomainStore {
    /// Fills an empty store with a course, players and an active round with some holes
    /// played, so a newcomer sees a real leaderboard at once. Does nothing when any round exists.
    @discardableResult
    public func seedDemoIfEmpty() async throws -> UUID? {
        let hasRounds = try await pool.read { db in try RoundRecord.fetchCount(db) > 0 }
        guard !hasRounds else { return nil }

        let pars = [3, 3, 4, 3, 3, 5, 3, 3, 4, 3, 4, 3, 3, 3, 4, 3, 3, 4]
        let distances = [82, 95, 168, 77, 110, 241, 88, 102, 175, 69, 190, 91, 84, 120, 205, 99, 73, 182]
        let course = try await createCourse(
            CourseDraft.Valid(
                name: DemoSeed.courseName,
                holes: pars.indices.map { Hole(number: $0 + 1, par: pars[$0], distance: distances[$0]) }
            ))
        let people = DemoSeed.people
        var players: [Player] = []
        for (name, handle) in people {
            let existing = try await pool.read { db in try PlayerRecord.filter(PlayerRecord.Columns.handle == handle).fetchOne(db) }
            if let existing {
                players.append(try existing.domain())
            } else {
                players.append(
                    try await createPlayer(
                        PlayerDraft.Valid(displayName: name, handle: Handle(trusted: handle), role: handle == "ann" ? .coach : .athlete), by: nil))
            }
        }
        let round = try await createRound(
            RoundDraft.Valid(name: DemoSeed.roundName, courseID: course.id, playerIDs: players.map(\.id), startNow: true))

        // A plausible front nine in progress: later players are fewer holes in.
        let cards: [[Int]] = [
            [3, 2, 4, 3, 3, 4, 3, 3],
            [3, 3, 4, 3, 4, 5, 3],
            [2, 3, 5, 3, 3, 5, 3],
            [3, 3, 4, 4, 3, 6],
            [4, 3, 4, 3, 3],
            [3, 3, 3, 3],
        ]
        for (player, card) in zip(players, cards) {
            for (index, strokes) in card.enumerated() {
                _ = try await recordScore(ScoreSubmission(playerID: player.id, hole: index + 1, strokes: .count(strokes)), in: round.id)
            }
        }
        return round.id
    }
}
