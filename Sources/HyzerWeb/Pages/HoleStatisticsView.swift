import Foundation
import HyzerCore

/// A layout's hole statistics as the round page, the event page and the TV show them: each
/// hole's average to par, difficulty rank and its scores as a bar (drawn by the template as
/// SVG, its counts in words for screen readers and print).
public struct HoleStatisticsView: Sendable {
    public struct Segment: Sendable {
        /// ace, eagle, birdie, par, bogey, double: the CSS class that colours it.
        public var kind: String
        public var x: String
        public var width: String
    }

    public struct Row: Sendable {
        public var number: Int
        public var par: Int
        public var average: String
        public var averageClass: String
        public var rank: String
        public var played: Int
        public var segments: [Segment]
        /// "2 birdies, 5 pars, 1 bogey".
        public var counts: String
    }

    public var courseID: String
    public var courseName: String
    public var summary: String
    public var rows: [Row]
    /// Someone has finished a hole.
    public var hasScores: Bool

    /// In `Distribution.counts`' order: the CSS class, and the name of one and of several.
    public static let kinds: [(kind: String, one: String, many: String)] = [
        ("ace", "ace", "aces"), ("eagle", "eagle or better", "eagles or better"), ("birdie", "birdie", "birdies"), ("par", "par", "pars"),
        ("bogey", "bogey", "bogeys"), ("double", "double bogey or worse", "double bogeys or worse"),
    ]

    public init(course: Course, statistics: HoleStatistics) {
        courseID = Format.id(course.id)
        courseName = course.name
        let scores = statistics.holes.reduce(0) { $0 + $1.played }
        let rounds = statistics.rounds == 1 ? "1 round" : "\(statistics.rounds) rounds"
        summary = "\(rounds) · \(scores == 1 ? "1 score" : "\(scores) scores")"
        hasScores = scores > 0
        rows = statistics.holes.map { hole in
            let values = hole.distribution.counts
            var segments: [Segment] = []
            var x = 0.0
            for (index, value) in values.enumerated() where value > 0 && hole.played > 0 {
                let width = Double(value) * 100 / Double(hole.played)
                segments.append(Segment(kind: Self.kinds[index].kind, x: String(format: "%.2f", x), width: String(format: "%.2f", width)))
                x += width
            }
            let counts = values.enumerated().filter { $0.element > 0 }.map { index, value in
                "\(value) \(value == 1 ? Self.kinds[index].one : Self.kinds[index].many)"
            }
            return Row(
                number: hole.number, par: hole.par, average: hole.averageToPar.map(Self.average) ?? "–",
                averageClass: hole.averageToPar.map { $0 > 0.005 ? "over" : ($0 < -0.005 ? "under" : "even") } ?? "none",
                rank: hole.difficultyRank.map(String.init) ?? "–", played: hole.played, segments: segments,
                counts: counts.isEmpty ? "Not played yet" : counts.joined(separator: ", "))
        }
    }

    /// "+0.42", "-0.17", "E": a hole's average against its par, as scores are written.
    static func average(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == 0 ? "E" : String(format: "%+.2f", rounded)
    }

    /// The `count` hardest holes played so far, hardest first (equal ranks in hole order):
    /// those playing over par, or when none does, the three hardest.
    public func hardest(_ count: Int) -> HoleStatisticsView {
        var view = self
        let ranked = rows.filter { $0.played > 0 }.sorted { (Int($0.rank) ?? .max, $0.number) < (Int($1.rank) ?? .max, $1.number) }
        let over = ranked.filter { $0.averageClass == "over" }
        view.rows = Array((over.isEmpty ? ranked.prefix(3) : over.prefix(count)))
        return view
    }
}
