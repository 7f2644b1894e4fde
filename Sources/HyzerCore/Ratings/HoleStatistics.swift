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

        /// Ace, eagle, birdie, par, bogey, double or worse: the order every page lists them in.
        public var counts: [Int] { [ace, eagle, birdie, par, bogey, doublePlus] }

        public static func + (left: Distribution, right: Distribution) -> Distribution {
            var sum = left
            sum.ace += right.ace
            sum.eagle += right.eagle
            sum.birdie += right.birdie
            sum.par += right.par
            sum.bogey += right.bogey
            sum.doublePlus += right.doublePlus
            return sum
        }

        /// The scores `strokes` on holes of `par` make, by kind.
        public static func of(_ scores: [(strokes: Int, par: Int)]) -> Distribution {
            var distribution = Distribution()
            for score in scores where score.strokes > 0 { distribution.add(strokes: score.strokes, par: score.par) }
            return distribution
        }

        mutating func add(strokes: Int, par holePar: Int, count: Int = 1) {
            switch strokes - holePar {
            case _ where strokes == 1: ace += count
            case ...(-2): eagle += count
            case -1: birdie += count
            case 0: par += count
            case 1: bogey += count
            default: doublePlus += count
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
        var tally = Tally()
        for score in scores { tally.add(hole: score.hole, strokes: score.strokes) }
        return compute(course: course, tallies: [tally], rounds: rounds)
    }

    /// From each round's tally: a layout's thousands of rounds are added up from tallies kept
    /// per round, not from their scores read again (into arrays by hole number: no hashing).
    public static func compute(course: Course, tallies: [Tally], rounds: Int) -> HoleStatistics {
        let last = max(course.holes.map(\.number).max() ?? 0, 0)
        var pars = [Int?](repeating: nil, count: last + 1)
        for hole in course.holes where hole.number >= 0 && pars[hole.number] == nil { pars[hole.number] = hole.par }
        var sums = [(count: Int, toPar: Int, distribution: Distribution)?](repeating: nil, count: last + 1)
        for tally in tallies {
            for made in tally.counts {
                guard made.hole >= 0, made.hole <= last, let par = pars[made.hole] else { continue }
                var entry = sums[made.hole] ?? (0, 0, Distribution())
                entry.count += made.count
                entry.toPar += (made.strokes - par) * made.count
                entry.distribution.add(strokes: made.strokes, par: par, count: made.count)
                sums[made.hole] = entry
            }
        }
        let totals = Dictionary(
            sums.enumerated().compactMap { hole, sum in sum.map { (hole, $0) } }, uniquingKeysWith: { first, _ in first })
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

    /// How many times each score was made on each hole: what a round adds to its layout's
    /// statistics, whatever the pars (a layout's pars may be edited after).
    public struct Tally: Hashable, Sendable {
        public struct Made: Hashable, Sendable {
            public var hole: Int
            public var strokes: Int
            public var count: Int
        }

        /// One entry per hole and score made on it.
        public private(set) var counts: [Made] = []

        public init() {}

        mutating func add(hole: Int, strokes: Int) {
            guard strokes > 0 else { return }
            if let index = counts.firstIndex(where: { $0.hole == hole && $0.strokes == strokes }) {
                counts[index].count += 1
            } else {
                counts.append(Made(hole: hole, strokes: strokes, count: 1))
            }
        }

        /// Every player's current score on every hole they finished.
        public init(_ board: RoundBoard) {
            let players = Set(board.snapshot.round.playerIDs)
            for (key, state) in board.scores.holes where players.contains(key.playerID) {
                if let strokes = state.winner.score { add(hole: key.hole, strokes: strokes) }
            }
        }
    }
}
