import Foundation
import HyzerCore
import HyzerStore
import Synchronization

/// `hyzer-bench ratings`: ratings and hole statistics against a real store, and what they do
/// to the score path.
///   - rating one 150-player round (the SSA solved, every player rated): pure computation;
///   - a layout with 10,000 completed rounds (6 players each, every player with an entered
///     rating): the layout's hole statistics and the club's ratings, cold (every round read)
///     and after one new score in a live round (only that round read again);
///   - standings after one new event in a 10,000-event round while another task reads the
///     club's ratings and the layout's statistics ten times a second: goal as without (≤ 2 ms).
enum RatingsBench {
    struct Figures {
        var rateRound: [Double] = []
        var rounds = 0
        var setupSeconds = 0.0
        var coldStatistics = 0.0
        var coldRatings = 0.0
        var warmStatistics: [Double] = []
        var warmRatings: [Double] = []
        var standings = StandingsBench.Timing()
        /// The same on the same store with nothing read alongside.
        var standingsAlone = StandingsBench.Timing()
        var readsDuring = 0

        var lines: [String] {
            let p = StandingsBench.Timing.p
            return [
                String(format: "rate_150_player_round p50=%.2fms p99=%.2fms goal<=20ms", p(rateRound, 0.5), p(rateRound, 0.99)),
                String(
                    format: "layout_of_%d_rounds cold: statistics=%.0fms ratings=%.0fms (set up in %.0fs)", rounds, coldStatistics, coldRatings,
                    setupSeconds),
                String(
                    format: "after_one_new_score: statistics p50=%.1fms ratings p50=%.1fms goal<=250ms", p(warmStatistics, 0.5),
                    p(warmRatings, 0.5)),
                standingsAlone.line("standings_after_one_new_event_same_store_nothing_alongside", ""),
                standings.line("standings_after_one_new_event_with_ratings_read_alongside", "reads_alongside=\(readsDuring)"),
            ]
        }
    }

    static func run(rounds: Int) async throws -> Figures {
        var figures = Figures()
        figures.rateRound = rateOneRound()
        try await StandingsBench.withClub { domain, course, players in
            figures.rounds = rounds
            let start = ContinuousClock.now
            let live = try await layout(domain, course: course, players: Array(players.prefix(60)), rounds: rounds)
            figures.setupSeconds = StandingsBench.milliseconds(ContinuousClock.now - start) / 1000
            figures.coldStatistics = try await StandingsBench.milliseconds(measuring: { _ = try await domain.holeStatistics(course: course.id) })
            figures.coldRatings = try await StandingsBench.milliseconds(measuring: { _ = try await domain.clubRatings() })
            for index in 0..<20 {
                _ = try await domain.recordScore(
                    ScoreSubmission(playerID: players[index % 6].id, hole: 1 + index / 6, strokes: .count(3)), in: live)
                figures.warmStatistics.append(
                    try await StandingsBench.milliseconds(measuring: { _ = try await domain.holeStatistics(course: course.id) }))
                figures.warmRatings.append(try await StandingsBench.milliseconds(measuring: { _ = try await domain.clubRatings() }))
            }
            figures.standingsAlone = try await StandingsBench.bigRound(domain, course: course, players: players).timing
            // The score path with ratings and statistics read alongside, as pages would: ten
            // times a second, each read after a new score (nothing kept can answer it).
            let stop = Atomic<Bool>(false)
            let reads = Atomic<Int>(0)
            async let reader: Void = {
                while !stop.load(ordering: .relaxed) {
                    _ = try await domain.clubRatings()
                    _ = try await domain.holeStatistics(course: course.id)
                    reads.add(1, ordering: .relaxed)
                    try await Task.sleep(for: .milliseconds(100))
                }
            }()
            let timing = try await StandingsBench.bigRound(domain, course: course, players: players).timing
            stop.store(true, ordering: .relaxed)
            try await reader
            figures.standings = timing
            figures.readsDuring = reads.load(ordering: .relaxed)
        }
        return figures
    }

    /// 150 finishers, every one a propagator, on 18 holes: the solve and the ratings, 200 times.
    static func rateOneRound() -> [Double] {
        var generator = SeededGenerator(state: 150)
        let entries = (0..<150).map { index -> RoundRatings.Entry in
            let rating = 850 + Int(generator.next() % 180)
            return RoundRatings.Entry(
                playerID: UUID(), strokes: 54 + (1000 - rating) / 10 + Int(generator.next() % 7) - 3, finished: true, propagatingRating: rating)
        }
        return (0..<200).map { _ in StandingsBench.milliseconds { _ = RoundRatings.rate(holes: 18, entries) } }
    }

    /// `rounds` completed rounds of 6 on the layout (each player's scores follow their entered
    /// rating), then one live round; returns the live round.
    static func layout(_ domain: DomainStore, course: Course, players: [Player], rounds: Int) async throws -> UUID {
        var generator = SeededGenerator(state: 10_000)
        let ratings = players.indices.map { 850 + $0 * 150 / players.count }
        for (player, rating) in zip(players, ratings) { _ = try await domain.setEnteredRating(player.id, to: rating, actor: nil) }
        let holes = course.holes.map(\.number)
        for number in 0..<rounds {
            let chosen = (0..<6).map { (number * 7 + $0 * 11) % players.count }
            let round = try await domain.createRound(
                RoundDraft.Valid(name: "League \(number)", courseID: course.id, playerIDs: chosen.map { players[$0].id }, startNow: true))
            _ = try await domain.recordScores(
                chosen.flatMap { index in
                    holes.map { hole in
                        // A 1000-rated player averages 3 a hole; 100 points below, about half a throw more.
                        let extra = Double(1000 - ratings[index]) / 10 / 18
                        let roll = Double(generator.next() % 1000) / 1000
                        let strokes = 3 + (roll < extra ? 1 : 0) + (roll > 0.93 ? 1 : 0) - (roll < 0.08 ? 1 : 0)
                        return ScoreSubmission(playerID: players[index].id, hole: hole, strokes: .count(max(strokes, 1)))
                    }
                }, in: round.id, by: nil)
            _ = try await domain.setStatus(of: round.id, to: .completed)
            if number % 1000 == 999 { FileHandle.standardError.write("  \(number + 1) rounds\n".data(using: .utf8) ?? Data()) }
        }
        let live = try await domain.createRound(
            RoundDraft.Valid(name: "Tonight", courseID: course.id, playerIDs: players.prefix(6).map(\.id), startNow: true))
        return live.id
    }
}
