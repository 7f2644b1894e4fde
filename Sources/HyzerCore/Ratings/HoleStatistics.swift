import Foundation

/// How a layout's holes play: each hole's average to par, its scores by kind and how hard it
/// is against the others, over whatever rounds are given (one round, an event, every round
/// on the layout).
public struct HoleStatistics: Hashable, Sendable {
    public struct Distribution: Hashable, Sendable {
        public var ace = 0
        /// Two or more under par (an ace counts only as an ace).
        public var eagle = 0
        public var birdie = 0
        public var par = 0
        public var bogey = 0
        public var doublePlus = 0

        public init() {}

        /// The scores `strokes` on holes of `par` make, by kind.
        public static func of(_ scores: [(strokes: Int, par: Int)]) -> Distribution {
            var distribution = Distribution()
            for score in scores where score.strokes > 0 { distribution.add(strokes: score.strokes, par: score.par) }
            return distribution
        }

        mutating func add(strokes: Int, par holePar: Int) {
            switch strokes - holePar {
            case _ where strokes == 1: ace += 1
            case ...(-2): eagle += 1
            case -1: birdie += 1
            case 0: par += 1
            case 1: bogey += 1
            default: doublePlus += 1
            }
        }
    }

    public struct Hole: Hashable, Sendable {
        public var number: Int
        public var par: Int
        /// Scores counted on it.
        public var played: Int
        /// Nil until someone has played it.
        public var averageToPar: Double?
        public var distribution: Distribution
        /// 1 for the hardest (highest average to par); equal averages share a rank.
        public var difficultyRank: Int?
    }

    public var rounds: Int
    public var holes: [Hole]

    /// `scores`: every player's current score on every hole they finished, of `rounds` rounds.
    public static func compute(course: Course, scores: [(hole: Int, strokes: Int)], rounds: Int) -> HoleStatistics {
        var totals: [Int: (count: Int, toPar: Int, distribution: Distribution)] = [:]
        let pars = Dictionary(course.holes.map { ($0.number, $0.par) }, uniquingKeysWith: { first, _ in first })
        for score in scores {
            guard let par = pars[score.hole], score.strokes > 0 else { continue }
            var entry = totals[score.hole] ?? (0, 0, Distribution())
            entry.count += 1
            entry.toPar += score.strokes - par
            entry.distribution.add(strokes: score.strokes, par: par)
            totals[score.hole] = entry
        }
        var holes = course.holes.map { hole in
            let entry = totals[hole.number]
            return Hole(
                number: hole.number, par: hole.par, played: entry?.count ?? 0,
                averageToPar: entry.map { Double($0.toPar) / Double($0.count) }, distribution: entry?.distribution ?? Distribution(),
                difficultyRank: nil)
        }
        let played = holes.indices.filter { holes[$0].averageToPar != nil }.sorted {
            (holes[$0].averageToPar ?? 0) > (holes[$1].averageToPar ?? 0)
        }
        for (position, index) in played.enumerated() {
            let average = holes[index].averageToPar
            let first = played.firstIndex { holes[$0].averageToPar == average } ?? position
            holes[index].difficultyRank = first + 1
        }
        return HoleStatistics(rounds: rounds, holes: holes)
    }
}
