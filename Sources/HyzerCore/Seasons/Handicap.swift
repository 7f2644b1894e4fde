import Foundation

/// A season's handicap method: what a player's earlier league rounds say they usually shoot,
/// to par on an 18-hole round. Net = gross − handicap (whole throws).
public struct HandicapMethod: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The average of the best 8 of the last 20 rounds (fewer: the best half, rounded up).
        case bestOfRecent
        /// `percent` % of the average of the last 5 rounds.
        case percentage
        /// (1000 − rating) ÷ the layout's rating points per throw.
        case rating
    }

    public static let percentRange = 85...100
    public static let window = 20
    public static let best = 8
    public static let percentageWindow = 5

    /// Where a player without a handicap yet is placed when places go by net scores.
    public enum Unhandicapped: String, Hashable, Sendable, Codable, CaseIterable {
        /// On their gross score, among the others' net scores.
        case gross
        /// Nowhere: they take part (points for taking part) but take no place.
        case unplaced
    }

    public var kind: Kind
    public var percent: Int
    /// Rounds a player needs before a handicap applies; before that, none.
    public var minimumRounds: Int
    public var unhandicapped: Unhandicapped

    public init(kind: Kind, percent: Int = 100, minimumRounds: Int = 3, unhandicapped: Unhandicapped = .gross) {
        self.kind = kind
        self.percent = percent
        self.minimumRounds = minimumRounds
        self.unhandicapped = unhandicapped
    }

    enum CodingKeys: String, CodingKey { case kind, percent, minimumRounds, unhandicapped }

    // Seasons stored before `unhandicapped` existed placed such players on gross.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(Kind.self, forKey: .kind)
        percent = try container.decode(Int.self, forKey: .percent)
        minimumRounds = try container.decode(Int.self, forKey: .minimumRounds)
        unhandicapped = try container.decodeIfPresent(Unhandicapped.self, forKey: .unhandicapped) ?? .gross
    }

    /// The method in words, for the season page.
    public var description: String {
        let minimum =
            (kind == .rating && minimumRounds == 0
                ? "A handicap applies to every player with a rating; "
                : minimumRounds <= 1
                    ? "A handicap applies once a player has played a league round; "
                    : "A handicap applies once a player has \(minimumRounds) league rounds; ")
            + (unhandicapped == .gross
                ? "until then, net places use their gross score."
                : "until then, they take no place on net nights (only points for taking part).")
            + " A night's handicaps are fixed when its first round starts."
        switch kind {
        case .bestOfRecent:
            return
                "Handicap: the average of a player's best \(Self.best) results to par among their last \(Self.window) league rounds (with fewer, the best half of what they have), each scaled to 18 holes. \(minimum)"
        case .percentage:
            return
                "Handicap: \(percent)% of a player's average result to par over their last \(Self.percentageWindow) league rounds, each scaled to 18 holes. \(minimum)"
        case .rating:
            return
                "Handicap: (1000 − the player's rating, entered or Hyzer's own) ÷ the layout's rating points per throw (from its latest rated round, or its par before any), for 18 holes. \(minimum)"
        }
    }
}

/// One league round a handicap is computed from.
public struct HandicapRound: Hashable, Sendable {
    public var roundID: UUID
    public var toPar: Int
    public var holes: Int

    public init(roundID: UUID, toPar: Int, holes: Int) {
        self.roundID = roundID
        self.toPar = toPar
        self.holes = holes
    }

    /// The result as if the round were 18 holes long.
    public var toParOn18: Double { holes > 0 ? Double(toPar) * 18 / Double(holes) : 0 }
}

/// A handicap as computed for one night: its value, the throws applied, and what it used.
public struct Handicap: Hashable, Sendable, Codable {
    /// To one decimal, as shown.
    public var value: Double
    /// Whole throws taken off the gross score.
    public var strokes: Int
    public var method: HandicapMethod.Kind
    public var roundIDs: [UUID]

    /// `rounds` are the player's finished league rounds before the night, oldest first.
    /// Nil while they have fewer than the method's minimum.
    public static func compute(_ method: HandicapMethod, rounds: [HandicapRound], rating: (value: Double, pointsPerThrow: Double)? = nil)
        -> Handicap?
    {
        guard rounds.count >= method.minimumRounds else { return nil }
        let raw: Double
        let used: [HandicapRound]
        switch method.kind {
        case .bestOfRecent:
            guard !rounds.isEmpty else { return nil }
            let recent = Array(rounds.suffix(HandicapMethod.window))
            let count = min(HandicapMethod.best, (recent.count + 1) / 2)
            // Best = lowest to par; equal results: the more recent first.
            used = Array(
                recent.enumerated().sorted {
                    $0.element.toParOn18 != $1.element.toParOn18 ? $0.element.toParOn18 < $1.element.toParOn18 : $0.offset > $1.offset
                }
                .prefix(count).map(\.element))
            raw = used.map(\.toParOn18).reduce(0, +) / Double(used.count)
        case .percentage:
            guard !rounds.isEmpty else { return nil }
            used = Array(rounds.suffix(HandicapMethod.percentageWindow))
            raw = used.map(\.toParOn18).reduce(0, +) / Double(used.count) * Double(method.percent) / 100
        case .rating:
            guard let rating, rating.pointsPerThrow > 0 else { return nil }
            used = []
            raw = (1000 - rating.value) / rating.pointsPerThrow
        }
        let value = (raw * 10).rounded(.toNearestOrAwayFromZero) / 10
        return Handicap(value: value, strokes: Int(value.rounded(.toNearestOrAwayFromZero)), method: method.kind, roundIDs: used.map(\.roundID))
    }
}
