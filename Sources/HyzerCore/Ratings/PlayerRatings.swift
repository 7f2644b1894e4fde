import Foundation

/// A player's rating from their rated rounds, by the PDGA's published rules: the rounds of the
/// last 12 months (back to 24 until 8 are found); from 7 rounds on, those more than 2.5
/// standard deviations or 100 points below the average are dropped; from 9 on, the newest
/// quarter counts twice.
public enum PlayerRatings {
    /// Rated rounds a Hyzer rating needs to propagate (be "established").
    public static let establishedRounds = 8

    public struct RatedRound: Hashable, Sendable {
        public var roundID: UUID
        public var playedAt: Date
        public var rating: Int

        public init(roundID: UUID, playedAt: Date, rating: Int) {
            self.roundID = roundID
            self.playedAt = playedAt
            self.rating = rating
        }
    }

    public struct Rating: Hashable, Sendable {
        public var value: Int
        /// The rounds it is the average of (the doubled ones once).
        public var roundIDs: [UUID]
    }

    static let day: TimeInterval = 86_400

    /// The rating as of `moment` from `rounds` (any order); nil without rated rounds in 24 months.
    public static func rating(_ rounds: [RatedRound], asOf moment: Date) -> Rating? {
        let keyed = rounds.map { ($0, $0.roundID.lowercasedText) }.sorted {
            $0.0.playedAt != $1.0.playedAt ? $0.0.playedAt < $1.0.playedAt : $0.1 < $1.1
        }
        return rating(chronological: keyed.map(\.0), asOf: moment)
    }

    /// The same from `rounds` already in the order played (oldest first; on one moment, by id),
    /// as the club's ratings keep them: no sorting, and only the last 24 months looked at.
    static func rating(chronological rounds: [RatedRound], asOf moment: Date) -> Rating? {
        let twoYearsAgo = moment.addingTimeInterval(-730 * day)
        var newestFirst: [RatedRound] = []
        for round in rounds.reversed() {
            if round.playedAt > moment { continue }
            if round.playedAt < twoYearsAgo { break }
            newestFirst.append(round)
        }
        let yearAgo = moment.addingTimeInterval(-365 * day)
        var used = newestFirst.filter { $0.playedAt >= yearAgo }
        if used.count < establishedRounds {
            let older = newestFirst.filter { $0.playedAt < yearAgo && $0.playedAt >= twoYearsAgo }
            used += older.prefix(establishedRounds - used.count)
        }
        guard !used.isEmpty else { return nil }
        if used.count >= 7 {
            let values = used.map { Double($0.rating) }
            let mean = values.reduce(0, +) / Double(values.count)
            let deviation = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
            let floor = max(mean - 2.5 * deviation, mean - 100)
            used = used.filter { Double($0.rating) >= floor }
        }
        var weighted = used.map(\.rating)
        if used.count >= 9 {
            let doubled = Int((Double(used.count) * 0.25).rounded(.toNearestOrAwayFromZero))
            weighted += used.prefix(doubled).map(\.rating)
        }
        let average = Double(weighted.reduce(0, +)) / Double(weighted.count)
        return Rating(value: Int(average.rounded(.toNearestOrAwayFromZero)), roundIDs: used.map(\.roundID))
    }
}
