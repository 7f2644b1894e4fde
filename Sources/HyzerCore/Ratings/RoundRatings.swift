import Foundation

/// Round ratings in the PDGA manner (`shared/data/pdga-ratings/README.md`): the players with
/// an established rating (propagators) fix the layout's scratch scoring average (SSA, what a
/// 1000-rated player shoots) so that their average round rating equals their average rating;
/// every finisher's round is then rated from the SSA and the points a throw is worth there.
public enum RoundRatings {
    /// Propagators a round needs.
    public static let minimumPropagators = 5
    /// The lowest rating a propagator may have (the PDGA's "above 799").
    public static let propagatorFloor = 800
    /// A propagator who plays more than this below their rating is left out.
    public static let dropBelow = 60.0

    /// The highest SSA over 18 holes the points-per-throw fit is read at. The fit falls to
    /// zero points a throw at about 95 and below zero past it, where a higher score would rate
    /// higher; published SSAs stay far below (about 40 to 75). A round whose propagators need
    /// more is unrated rather than rated by a formula read outside its data.
    public static let maximumSSA18 = 90.0

    /// One player's round as the rating reads it.
    public struct Entry: Hashable, Sendable {
        public var playerID: UUID
        public var strokes: Int
        /// Played every hole and did not retire.
        public var finished: Bool
        /// Their rating before this round, when they have one that propagates.
        public var propagatingRating: Int?

        public init(playerID: UUID, strokes: Int, finished: Bool, propagatingRating: Int?) {
            self.playerID = playerID
            self.strokes = strokes
            self.finished = finished
            self.propagatingRating = propagatingRating
        }
    }

    public struct Result: Hashable, Sendable {
        /// In the layout's strokes; nil when the round cannot be rated.
        public var ssa: Double?
        /// Rating points one throw is worth on this layout.
        public var pointsPerThrow: Double?
        /// Propagators whose ratings fixed the SSA.
        public var propagators: [UUID]
        public var ratings: [UUID: Int]
        /// Players without a round rating, and why.
        public var unrated: [UUID: String]
        /// Why no one's round is rated, when so.
        public var reason: String?
    }

    /// The PDGA's points per throw at an 18-hole SSA (the widely used reverse-engineered fit).
    public static func pointsPerThrow(ssa18: Double) -> Double {
        ssa18 > 50.329 ? -0.225067 * ssa18 + 21.3858 : -0.487095 * ssa18 + 34.5734
    }

    /// Points per throw on a layout of `holes`: the fit read at the SSA scaled to 18 holes, and
    /// scaled back, so a 9-hole throw is worth twice an 18-hole one.
    public static func pointsPerThrow(ssa: Double, holes: Int) -> Double {
        let scale = 18 / Double(max(holes, 1))
        return pointsPerThrow(ssa18: ssa * scale) * scale
    }

    /// A layout's points per throw over 18 holes, for rating-based handicaps: from the SSA of
    /// its latest rated round, or before any is rated, from its par (a scratch player's
    /// score, roughly).
    public static func layoutPointsPerThrow(latestSSA ssa: Double?, holes: Int, par: Int) -> Double {
        let scale = 18 / Double(max(holes, 1))
        return pointsPerThrow(ssa18: (ssa ?? Double(par)) * scale)
    }

    static func rating(ssa: Double, holes: Int, strokes: Int) -> Double {
        1000 + (ssa - Double(strokes)) * pointsPerThrow(ssa: ssa, holes: holes)
    }

    public static func rate(holes: Int, _ entries: [Entry]) -> Result {
        var unrated: [UUID: String] = [:]
        for entry in entries where !entry.finished { unrated[entry.playerID] = "Did not finish the round." }
        let finishers = entries.filter { $0.finished && $0.strokes > 0 }
        let candidates = finishers.filter { ($0.propagatingRating ?? 0) >= propagatorFloor }
        func none(_ why: String) -> Result {
            for entry in finishers { unrated[entry.playerID] = why }
            return Result(ssa: nil, pointsPerThrow: nil, propagators: [], ratings: [:], unrated: unrated, reason: why)
        }
        guard holes > 0 else { return none("The layout has no holes.") }
        guard candidates.count >= minimumPropagators else {
            return none(
                "Too few propagators: \(candidates.count) finisher\(candidates.count == 1 ? " has" : "s have") an established rating of \(propagatorFloor) or more; \(minimumPropagators) are needed."
            )
        }
        // Solve, leave out those far below their rating, solve again until nobody else goes.
        var kept = candidates
        var ssa = solve(kept, holes: holes)
        let beyond =
            "The scores are beyond what ratings cover: the propagators would need a scratch average above \(Int(maximumSSA18)) throws over 18 holes."
        // The solver stops at the fit's edge: a solution there means it would go further.
        func inRange(_ ssa: Double) -> Bool { ssa * 18 / Double(holes) < maximumSSA18 - 0.01 }
        for _ in 0..<10 {
            let next = candidates.filter { rating(ssa: ssa, holes: holes, strokes: $0.strokes) >= Double($0.propagatingRating ?? 0) - dropBelow }
            if next.count == kept.count { break }
            kept = next
            guard kept.count >= minimumPropagators else {
                // Everyone far below their rating at the fit's edge: the scores are past it.
                guard inRange(ssa) else { return none(beyond) }
                return none("Too few propagators played to their rating: \(kept.count) of \(candidates.count) (\(minimumPropagators) are needed).")
            }
            ssa = solve(kept, holes: holes)
        }
        // Checked once those far below their rating are left out: one absurd card must not
        // take the round's ratings from everyone else.
        guard inRange(ssa) else { return none(beyond) }
        var ratings: [UUID: Int] = [:]
        for entry in finishers {
            let value = Int(rating(ssa: ssa, holes: holes, strokes: entry.strokes).rounded(.toNearestOrAwayFromZero))
            // Below zero a rating says nothing, and one such round would sink a player's average.
            guard value >= 0 else {
                unrated[entry.playerID] = "The score is too far above the layout's scratch average to be rated."
                continue
            }
            ratings[entry.playerID] = value
        }
        return Result(
            ssa: ssa, pointsPerThrow: pointsPerThrow(ssa: ssa, holes: holes), propagators: kept.map(\.playerID), ratings: ratings, unrated: unrated,
            reason: nil)
    }

    /// The SSA at which the propagators' average round rating equals their average rating.
    /// Their average round rating rises with the SSA, so halving the interval finds it.
    static func solve(_ propagators: [Entry], holes: Int) -> Double {
        let target = Double(propagators.reduce(0) { $0 + ($1.propagatingRating ?? 0) }) / Double(propagators.count)
        var low = Double(holes)
        // Past the fit's range the solution is refused (`rate`): searching there is no use.
        var high = maximumSSA18 * Double(holes) / 18
        for _ in 0..<80 {
            let middle = (low + high) / 2
            let average = propagators.reduce(0.0) { $0 + rating(ssa: middle, holes: holes, strokes: $1.strokes) } / Double(propagators.count)
            if average < target { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}
