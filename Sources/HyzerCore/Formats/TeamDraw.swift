import Foundation

/// Teams drawn from a night's players: at random, or balanced so that the strongest play with
/// the weakest (by Hyzer's ratings or the season's handicaps). A single player left over by
/// the count plays as a cali.
public enum TeamDraw {
    public enum Balance: String, Codable, CaseIterable, Sendable {
        case none, rating, handicap
    }

    public struct Request: Hashable, Sendable {
        public var teamsOf: Int
        public var balance: Balance

        public static let sizes = 2...3

        public init(teamsOf: Int, balance: Balance) {
            self.teamsOf = teamsOf
            self.balance = balance
        }
    }

    /// The players strongest first (higher `strength` is stronger; none counts as the weakest),
    /// equals in the order given: a balanced draw's tiers and a bracket's seeds.
    public static func strongestFirst(_ players: [UUID], strength: [UUID: Double]) -> [UUID] {
        players.enumerated().sorted { lhs, rhs in
            let (a, b) = (strength[lhs.element] ?? -.infinity, strength[rhs.element] ?? -.infinity)
            return a != b ? a > b : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// Groups of players, each group one team (a group of one is the cali). `strength`:
    /// higher is stronger (a rating, or a handicap negated); players without one count as the
    /// weakest. Ties and the cali are drawn with `generator`, so a seed replays the draw.
    public static func draw(
        _ players: [UUID], _ request: Request, strength: [UUID: Double] = [:], using generator: inout some RandomNumberGenerator
    ) -> [[UUID]] {
        var pool = players.shuffled(using: &generator)
        let size = max(request.teamsOf, 1)
        guard pool.count >= 2 else { return pool.map { [$0] } }
        // A leftover of one is the cali, drawn at random before any balancing.
        var cali: UUID?
        if pool.count % size == 1 { cali = pool.removeLast() }
        var groups: [[UUID]]
        let teamCount = Int((Double(pool.count) / Double(size)).rounded(.up))
        if request.balance == .none {
            groups = stride(from: 0, to: pool.count, by: size).map { Array(pool[$0..<min($0 + size, pool.count)]) }
        } else {
            // Stable over the shuffle: equal strengths keep their drawn order.
            let ranked = strongestFirst(pool, strength: strength)
            // A snake through tiers: the best of the first tier meets the least of the second.
            groups = Array(repeating: [], count: teamCount)
            for (index, player) in ranked.enumerated() {
                let tier = index / teamCount
                let slot = index % teamCount
                groups[tier % 2 == 0 ? slot : teamCount - 1 - slot].append(player)
            }
        }
        if let cali { groups.append([cali]) }
        return groups
    }
}
