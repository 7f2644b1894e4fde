import Foundation

/// How a season turns a night's places into points: chosen per season, shown on the season
/// page in words (`description`).
public struct PointsRule: Hashable, Sendable, Codable {
    public enum Places: Hashable, Sendable {
        /// First gets N (the players who finished in the division that night), second N − 1, …
        /// last 1.
        case fieldSize
        /// The club's list, first place first; places past its end get its last value, or 0.
        case table([Int], pastEnd: PastEnd)
    }

    public enum PastEnd: String, Hashable, Sendable, Codable {
        case last, zero
    }

    /// Which results decide a night's places.
    public enum PlacesBy: String, Hashable, Sendable, Codable {
        case gross, net
    }

    public var places: Places
    public var placesBy: PlacesBy
    /// Points for each night played (finished or not), on top of place points.
    public var participation: Int
    /// Only the player's best K nights count; nil: every night.
    public var bestNights: Int?
    /// Season ties broken by most wins, then best single night; otherwise they stay ties.
    public var countBack: Bool

    public init(places: Places = .fieldSize, placesBy: PlacesBy = .gross, participation: Int = 0, bestNights: Int? = nil, countBack: Bool = false) {
        self.places = places
        self.placesBy = placesBy
        self.participation = participation
        self.bestNights = bestNights
        self.countBack = countBack
    }

    /// The points of one place (1-based) in a field of `finishers`.
    public func points(place: Int, finishers: Int) -> Int {
        switch places {
        case .fieldSize:
            return max(finishers - place + 1, 0)
        case .table(let table, let pastEnd):
            guard let last = table.last else { return 0 }
            if place <= table.count { return table[place - 1] }
            return pastEnd == .last ? last : 0
        }
    }

    /// Players tied for a place share the average of the points of the places they cover,
    /// rounded down to a whole number.
    public func points(sharing places: ClosedRange<Int>, finishers: Int) -> Int {
        let total = places.reduce(0) { $0 + points(place: $1, finishers: finishers) }
        let count = places.count
        // Rounded down (towards minus infinity: points are never negative, but say so).
        return total >= 0 ? total / count : -((-total + count - 1) / count)
    }

    /// The rule in words, for the season page.
    public var description: String {
        var parts: [String] = []
        switch places {
        case .fieldSize:
            parts.append(
                "In each division, first place gets as many points as players finished that night, second one fewer, and so on down to 1 for last.")
        case .table(let table, let pastEnd):
            let list = table.map(String.init).joined(separator: ", ")
            let past = pastEnd == .last ? "every later place gets \(table.last ?? 0)" : "later places get 0"
            parts.append("In each division, places score \(list) from first place on; \(past).")
        }
        parts.append("Players tied for a place share the average of the points of the places they cover, rounded down. A DNF gets no place points.")
        parts.append(placesBy == .gross ? "Places are decided on gross scores." : "Places are decided on net scores (gross minus handicap).")
        if participation > 0 { parts.append("Every night played adds \(participation) point\(participation == 1 ? "" : "s").") }
        if let bestNights { parts.append("Each player's best \(bestNights) night\(bestNights == 1 ? "" : "s") count.") }
        parts.append(
            countBack
                ? "Players level on points are separated by most wins, then their best single night."
                : "Players level on points share their position.")
        return parts.joined(separator: " ")
    }
}

// Stored and synced as the API writes it: {"rule", "table"?, "pastTable"?, "placesBy",
// "participation", "bestNights"?, "countBack"}. Written out so the bytes never depend on how
// Swift would encode an enum with values.
extension PointsRule {
    enum CodingKeys: String, CodingKey {
        case rule, table, pastTable, placesBy, participation, bestNights, countBack
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .rule) {
        case "fieldSize":
            places = .fieldSize
        case "table":
            places = .table(
                try container.decode([Int].self, forKey: .table), pastEnd: try container.decodeIfPresent(PastEnd.self, forKey: .pastTable) ?? .last)
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .rule, in: container, debugDescription: "not a points rule: \(other)")
        }
        placesBy = try container.decodeIfPresent(PlacesBy.self, forKey: .placesBy) ?? .gross
        participation = try container.decodeIfPresent(Int.self, forKey: .participation) ?? 0
        bestNights = try container.decodeIfPresent(Int.self, forKey: .bestNights)
        countBack = try container.decodeIfPresent(Bool.self, forKey: .countBack) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch places {
        case .fieldSize:
            try container.encode("fieldSize", forKey: .rule)
        case .table(let table, let pastEnd):
            try container.encode("table", forKey: .rule)
            try container.encode(table, forKey: .table)
            try container.encode(pastEnd, forKey: .pastTable)
        }
        try container.encode(placesBy, forKey: .placesBy)
        try container.encode(participation, forKey: .participation)
        try container.encodeIfPresent(bestNights, forKey: .bestNights)
        try container.encode(countBack, forKey: .countBack)
    }
}
