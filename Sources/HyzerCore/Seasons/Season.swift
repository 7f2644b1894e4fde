import Foundation

/// A league season: its divisions, its points rule and handicap method, and the league nights
/// (events) that belong to it. Mutable; merged last-writer-wins by HLC like events.
public struct Season: Identifiable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    /// Calendar days as the club wrote them (YYYY-MM-DD), when it did.
    public var startsOn: String?
    public var endsOn: String?
    public var divisions: [String]
    public var points: PointsRule
    /// Nil: no handicaps (places on gross).
    public var handicap: HandicapMethod?
    /// What a night costs and where the money goes; nil: fees are recorded without amounts.
    public var fees: FeePlan?
    public var createdBy: UUID?
    public var createdAt: Date
    public var updatedAt: HLC
    /// Removed while nights belong to it: its table stays readable, lists and the TV leave it out.
    public var archived = false

    public init(
        id: UUID, name: String, startsOn: String? = nil, endsOn: String? = nil, divisions: [String], points: PointsRule,
        handicap: HandicapMethod? = nil, createdBy: UUID? = nil, createdAt: Date, updatedAt: HLC
    ) {
        self.id = id
        self.name = name
        self.startsOn = startsOn
        self.endsOn = endsOn
        self.divisions = divisions
        self.points = points
        self.handicap = handicap
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `POST /api/v1/seasons` and the new-season form, as typed.
public struct SeasonDraft: Sendable, Hashable {
    public var name: String?
    public var startsOn: String?
    public var endsOn: String?
    public var divisions: [String]
    /// "gross" or "net".
    public var placesBy: String?
    /// "fieldSize" or "table".
    public var rule: String?
    public var table: [Int]?
    /// "last" or "zero".
    public var pastTable: String?
    public var participation: Int?
    public var bestNights: Int?
    public var countBack: Bool?
    /// "bestOfRecent", "percentage" or "rating"; nil, "" or
    /// "none" for none.
    public var handicap: String?
    public var percent: Int?
    public var minimumRounds: Int?
    /// "gross" (default) or "unplaced": where net nights place a player without a handicap yet.
    public var unhandicapped: String?

    public init(
        name: String? = nil, startsOn: String? = nil, endsOn: String? = nil, divisions: [String] = [], placesBy: String? = nil,
        rule: String? = nil, table: [Int]? = nil, pastTable: String? = nil, participation: Int? = nil, bestNights: Int? = nil,
        countBack: Bool? = nil, handicap: String? = nil, percent: Int? = nil, minimumRounds: Int? = nil,
        unhandicapped: String? = nil
    ) {
        self.name = name
        self.startsOn = startsOn
        self.endsOn = endsOn
        self.divisions = divisions
        self.placesBy = placesBy
        self.rule = rule
        self.table = table
        self.pastTable = pastTable
        self.participation = participation
        self.bestNights = bestNights
        self.countBack = countBack
        self.handicap = handicap
        self.percent = percent
        self.minimumRounds = minimumRounds
        self.unhandicapped = unhandicapped
    }

    /// The draft a season was made from: an edit starts here and changes what it names.
    public init(_ season: Season) {
        var table: [Int]?
        var pastTable: String?
        if case .table(let values, let pastEnd) = season.points.places {
            table = values
            pastTable = pastEnd.rawValue
        }
        self.init(
            name: season.name, startsOn: season.startsOn, endsOn: season.endsOn, divisions: season.divisions,
            placesBy: season.points.placesBy.rawValue, rule: table == nil ? "fieldSize" : "table", table: table, pastTable: pastTable,
            participation: season.points.participation, bestNights: season.points.bestNights, countBack: season.points.countBack,
            handicap: season.handicap?.kind.rawValue ?? "none", percent: season.handicap?.percent,
            minimumRounds: season.handicap?.minimumRounds, unhandicapped: season.handicap?.unhandicapped.rawValue)
    }

    public struct Valid: Sendable, Hashable {
        public var name: String
        public var startsOn: String?
        public var endsOn: String?
        public var divisions: [String]
        public var points: PointsRule
        public var handicap: HandicapMethod?
    }

    public static let tableLength = 1...200
    public static let pointsRange = 0...1000
    public static let participationRange = 0...100
    public static let bestNightsRange = 1...100
    public static let minimumRoundsRange = 0...20

    public func validated() throws(FieldErrors) -> Valid {
        var errors = FieldErrors()
        let name = TextRules.name(TextRules.cleaned(self.name), field: "name", label: "Season name", maxLength: 80, into: &errors)
        let divisions = Division.list(divisions, owner: "A season", into: &errors)
        let startsOn = Self.day(startsOn, field: "startsOn", into: &errors)
        let endsOn = Self.day(endsOn, field: "endsOn", into: &errors)
        if let startsOn, let endsOn, endsOn < startsOn { errors.add("endsOn", "The season ends on or after the day it starts.") }

        let placesBy = PointsRule.PlacesBy(rawValue: TextRules.cleaned(self.placesBy).isEmpty ? "gross" : TextRules.cleaned(self.placesBy))
        if placesBy == nil { errors.add("placesBy", "Places are decided on gross or net scores.") }
        var places = PointsRule.Places.fieldSize
        switch TextRules.cleaned(rule).isEmpty ? "fieldSize" : TextRules.cleaned(rule) {
        case "fieldSize":
            if table?.isEmpty == false { errors.add("table", "A points table goes with the table rule.") }
            if !TextRules.cleaned(pastTable).isEmpty { errors.add("pastTable", "What places past the table get goes with the table rule.") }
        case "table":
            let table = self.table ?? []
            let pastEnd = PointsRule.PastEnd(rawValue: TextRules.cleaned(pastTable).isEmpty ? "last" : TextRules.cleaned(pastTable))
            if !Self.tableLength.contains(table.count) {
                errors.add("table", "List the points of 1 to \(Self.tableLength.upperBound) places, first place first.")
            } else if !table.allSatisfy(Self.pointsRange.contains) {
                errors.add("table", "Points are whole numbers from 0 to \(Self.pointsRange.upperBound).")
            } else if zip(table, table.dropFirst()).contains(where: { $0 < $1 }) {
                errors.add("table", "A later place never scores more than an earlier one.")
            }
            if pastEnd == nil { errors.add("pastTable", "Places past the table get its last value (last) or nothing (zero).") }
            places = .table(table, pastEnd: pastEnd ?? .last)
        default:
            errors.add("rule", "Points are by field size (fieldSize) or by the club's table (table).")
        }
        let participation = participation ?? 0
        if !Self.participationRange.contains(participation) {
            errors.add("participation", "Points for taking part are 0 to \(Self.participationRange.upperBound).")
        }
        if let bestNights, !Self.bestNightsRange.contains(bestNights) {
            errors.add("bestNights", "Best nights counted is 1 to \(Self.bestNightsRange.upperBound), or leave it empty to count every night.")
        }

        var handicap: HandicapMethod?
        let method = TextRules.cleaned(self.handicap)
        // A rating already sums up a player's rounds: by rating, a handicap applies at once
        // unless the season says otherwise.
        let minimum = minimumRounds ?? (method == HandicapMethod.Kind.rating.rawValue ? 0 : 3)
        if !Self.minimumRoundsRange.contains(minimum) {
            errors.add("minimumRounds", "Rounds before a handicap applies: 0 to \(Self.minimumRoundsRange.upperBound).")
        }
        if !method.isEmpty, method != "none" {
            if let kind = HandicapMethod.Kind(rawValue: method) {
                let percent = percent ?? 100
                if kind == .percentage, !HandicapMethod.percentRange.contains(percent) {
                    errors.add(
                        "percent", "The percentage is \(HandicapMethod.percentRange.lowerBound) to \(HandicapMethod.percentRange.upperBound).")
                }
                let placing = HandicapMethod.Unhandicapped(
                    rawValue: TextRules.cleaned(unhandicapped).isEmpty ? "gross" : TextRules.cleaned(unhandicapped))
                if placing == nil {
                    errors.add("unhandicapped", "Players without a handicap yet are placed on gross (gross) or not placed (unplaced).")
                }
                handicap = HandicapMethod(
                    kind: kind, percent: kind == .percentage ? percent : 100, minimumRounds: minimum, unhandicapped: placing ?? .gross)
            } else {
                errors.add("handicap", "Handicaps are bestOfRecent, percentage or rating (or none).")
            }
        }
        if placesBy == .net, handicap == nil { errors.add("placesBy", "Net places need a handicap method.") }
        try errors.throwIfAny()
        return Valid(
            name: name, startsOn: startsOn, endsOn: endsOn, divisions: divisions,
            points: PointsRule(
                places: places, placesBy: placesBy ?? .gross, participation: participation, bestNights: bestNights, countBack: countBack ?? false),
            handicap: handicap)
    }

    /// A calendar day as YYYY-MM-DD, or nil when none was given.
    static func day(_ raw: String?, field: String, into errors: inout FieldErrors) -> String? {
        let text = TextRules.cleaned(raw)
        if text.isEmpty { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.allSatisfy({ $0 == "-" || ($0.isASCII && $0.isNumber) }), parts.count == 3, parts[0].count == 4, parts[1].count == 2,
            parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2]),
            (2000...2100).contains(year), (1...12).contains(month),
            (1...Self.days(inMonth: month, of: year)).contains(dayOfMonth)
        else {
            errors.add(field, "Write the day as YYYY-MM-DD (e.g. 2026-04-07).")
            return nil
        }
        return text
    }

    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
