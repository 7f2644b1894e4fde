import Foundation
import HyzerCore
import HyzerStore

/// `hyzer-bench standings`: the board pipeline after one new score, on a real store.
///   - a 10,000-event round (200 players, 18 holes, corrections): read the round, compute its
///     board (current scores → standings → leaderboard), after each of 200 new scores;
///   - a 4-round, 150-player event in three divisions: read every round and compute the event
///     standings after each of 200 new scores in the round in progress.
/// Goal for each: ≤ 2 ms. Each row also gives the from-scratch figures (read every event,
/// compute everything) that the cached path avoids.
enum StandingsBench {
    struct Timing {
        /// The server's path: cached boards, only the new event read and folded in.
        var total: [Double] = []
        /// From scratch, for comparison.
        var read: [Double] = []
        var compute: [Double] = []

        var p50: Double { Self.p(total, 0.5) }
        var p99: Double { Self.p(total, 0.99) }
        static func p(_ values: [Double], _ q: Double) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
        }

        func line(_ name: String, _ detail: String) -> String {
            String(
                format: "%@ %@ p50=%.2fms p99=%.2fms goal<=2ms | from scratch: read_p50=%.2fms compute_p50=%.2fms",
                name, detail, p50, p99, Self.p(read, 0.5), Self.p(compute, 0.5))
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func milliseconds(measuring body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        return milliseconds(ContinuousClock.now - start)
    }

    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return milliseconds(ContinuousClock.now - start)
    }

    static func run() async throws -> [String] {
        try await withClub { domain, course, players in
            [
                try await bigRound(domain, course: course, players: players).line,
                try await event(domain, course: course, players: Array(players.prefix(150))),
            ]
        }
    }

    /// The 10,000-event round's timing alone, for the report.
    static func bigRoundTiming() async throws -> Timing {
        try await withClub { domain, course, players in try await bigRound(domain, course: course, players: players).timing }
    }

    static func withClub<T>(_ body: (DomainStore, Course, [Player]) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-bench-standings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stores = try await Stores(directory: directory)
        let domain = stores.domain
        let course = try await domain.createCourse(CourseDraft(name: "Bench Park", holeCount: "18").validated())
        let players = try await domain.importPlayers(
            (0..<200).map { index in
                try PlayerDraft(displayName: "Player \(index)", handle: "bench\(index)").validated()
            }, actor: nil
        ).created
        return try await body(domain, course, players)
    }

    static func bigRound(_ domain: DomainStore, course: Course, players: [Player]) async throws -> (line: String, timing: Timing) {
        let round = try await domain.createRound(
            RoundDraft.Valid(name: "Big round", courseID: course.id, playerIDs: players.map(\.id), startNow: true))
        let holes = course.holes.map(\.number)
        _ = try await domain.recordScores(
            players.flatMap { player in holes.map { ScoreSubmission(playerID: player.id, hole: $0, strokes: .count(3)) } }, in: round.id, by: nil)
        // Corrections until the round holds 10,000 events.
        var snapshot = try await domain.snapshot(of: round.id)
        var pass = 0
        while snapshot.events.count < 10_000 {
            pass += 1
            let scores = CurrentScores(events: snapshot.events)
            let batch = players.flatMap { player in
                holes.compactMap { hole -> ScoreSubmission? in
                    guard let current = scores[player.id, hole]?.winner else { return nil }
                    return ScoreSubmission(playerID: player.id, hole: hole, strokes: .count(3 + (pass % 2)), supersedes: current.id)
                }
            }.prefix(10_000 - snapshot.events.count)
            snapshot = try await domain.recordScores(Array(batch), in: round.id, by: nil)
        }
        var timing = Timing()
        for index in 0..<200 {
            let board = snapshot.board
            let player = players[index % players.count].id
            let hole = holes[index % holes.count]
            guard let current = board.scores[player, hole]?.winner else { continue }
            _ = try await domain.recordScore(
                ScoreSubmission(playerID: player, hole: hole, strokes: .count(2 + index % 3), supersedes: current.id), in: round.id)
            // The server's path: the cached board reads and folds in only the new event.
            let start = ContinuousClock.now
            let cached = try await domain.board(of: round.id)
            _ = cached.leaderboard
            let elapsed = ContinuousClock.now - start
            timing.total.append(milliseconds(elapsed))
            // For comparison, from scratch: read every event, then compute.
            let readStart = ContinuousClock.now
            snapshot = try await domain.snapshot(of: round.id)
            let read = ContinuousClock.now - readStart
            timing.read.append(milliseconds(read))
            timing.compute.append(milliseconds { _ = RoundBoard(snapshot).leaderboard })
        }
        return (timing.line("standings_after_one_new_event", "events=\(snapshot.events.count) players=\(players.count)"), timing)
    }

    static func event(_ domain: DomainStore, course: Course, players: [Player]) async throws -> String {
        let divisions = ["MPO", "MA1", "FPO"]
        let event = try await domain.createEvent(EventDraft.Valid(name: "Bench Open", divisions: divisions))
        let assigned = Dictionary(uniqueKeysWithValues: players.enumerated().map { ($1.id, divisions[$0 % divisions.count]) })
        let holes = course.holes.map(\.number)
        var last: UUID?
        for number in 1...4 {
            let round = try await domain.createRound(
                RoundDraft.Valid(
                    name: "Round \(number)", courseID: course.id, playerIDs: players.map(\.id), startNow: true,
                    eventID: event.id, divisions: assigned))
            // Rounds 1–3 complete; round 4 in progress (every player through 9).
            let played = number < 4 ? holes : Array(holes.prefix(9))
            _ = try await domain.recordScores(
                players.enumerated().flatMap { index, player in
                    played.map { ScoreSubmission(playerID: player.id, hole: $0, strokes: .count(2 + (index + $0 + number) % 3)) }
                }, in: round.id, by: nil)
            if number < 4 { _ = try await domain.setStatus(of: round.id, to: .completed) }
            last = round.id
        }
        guard let roundID = last else { return "event_standings: no round" }
        var timing = Timing()
        var snapshot = try await domain.eventSnapshot(event.id)
        for index in 0..<200 {
            let player = players[index % players.count].id
            let hole = 10 + (index / players.count) % 9
            _ = try await domain.recordScore(ScoreSubmission(playerID: player, hole: hole, strokes: .count(3)), in: roundID)
            let start = ContinuousClock.now
            snapshot = try await domain.eventSnapshot(event.id)
            let standings = snapshot.standings
            let elapsed = ContinuousClock.now - start
            timing.total.append(milliseconds(elapsed))
            precondition(!standings.divisions.isEmpty)
            // For comparison, from scratch: every round read and computed anew.
            var fresh: [RoundSnapshot] = []
            let readStart = ContinuousClock.now
            for round in snapshot.rounds { fresh.append(try await domain.snapshot(of: round.round.id)) }
            let read = ContinuousClock.now - readStart
            timing.read.append(milliseconds(read))
            timing.compute.append(
                milliseconds {
                    _ = EventStandings.compute(event: snapshot.event, rounds: fresh.map { .init(round: $0.round, standings: $0.board.standings) })
                })
        }
        let events = snapshot.rounds.map { $0.events.count }.reduce(0, +)
        return timing.line("event_standings_after_one_new_score", "rounds=4 players=\(players.count) divisions=3 events=\(events)")
    }
}
