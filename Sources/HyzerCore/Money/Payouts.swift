import Foundation

/// A division's purse paid by place: a pure function of the purse, the finishers in order
/// and the season's table.
public enum Payouts {
    public struct Place: Hashable, Sendable {
        public var playerID: UUID
        /// The place paid (tied players share the first place their group covers).
        public var place: Int
        public var cents: Int
    }

    /// `groups` are the paid finishers in finishing order, tied players in one group; `field`
    /// is how many paid into the purse. Each place's share is its weight's part of the purse,
    /// rounded down; tied players split the sum of the places they cover evenly, rounded
    /// down. What is left — places with nobody to pay, and the cents rounding leaves — is
    /// `left`, which goes to the club.
    public static func propose(purse: Int, groups: [[UUID]], field: Int, payout: FeePlan.Payout) -> (places: [Place], left: Int) {
        let weights = payout.weights(field: field)
        let total = weights.reduce(0, +)
        guard purse > 0, total > 0 else { return ([], max(purse, 0)) }
        let shares = weights.map { purse * $0 / total }
        var places: [Place] = []
        var next = 0
        for group in groups where !group.isEmpty {
            guard next < shares.count else { break }
            let covered = shares[next..<min(shares.count, next + group.count)].reduce(0, +)
            let each = covered / group.count
            places += group.map { Place(playerID: $0, place: next + 1, cents: each) }
            next += group.count
        }
        return (places, purse - places.reduce(0) { $0 + $1.cents })
    }
}
