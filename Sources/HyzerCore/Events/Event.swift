import Foundation

/// A tournament or league night: rounds played by the same field, in divisions, with one
/// set of standings. Mutable; merged last-writer-wins by HLC like courses and rounds.
public struct Event: Identifiable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    /// Club-defined division names in display order (MPO, FPO, MA1, Rec…); may be empty.
    public var divisions: [String]
    /// Each division's recorded playoff ("" for an event without divisions).
    public var playoffs: [String: Playoff]
    public var createdBy: UUID?
    public var createdAt: Date
    public var updatedAt: HLC
    /// Removed while rounds belong to it: its results stay, lists and pickers leave it out.
    public var archived = false
    /// The season this event is a league night of, if any.
    public var seasonID: UUID?
    /// When a coach last opened check-in (nil: never, or closed since). Its link and QR code
    /// work while it is open and the night is not over, for a night's length at most.
    public var checkInOpenedAt: Date?
    /// The day the night is played ("2026-12-03"), when the coach set one: its rounds are named
    /// by it, and the season lists its nights by it.
    public var playedOn: String?

    /// How long an opened check-in stays open: one night.
    public static let checkInLasts: TimeInterval = 18 * 3600

    public func checkInOpen(at moment: Date) -> Bool {
        guard let opened = checkInOpenedAt else { return false }
        return moment >= opened.addingTimeInterval(-300) && moment.timeIntervalSince(opened) < Self.checkInLasts
    }

    /// The check-in link's code: the id's first eight digits (short enough to type off a TV).
    public var checkInCode: String { String(id.lowercasedText.prefix(8)) }

    public static let divisionCountRange = 0...20

    public init(
        id: UUID, name: String, divisions: [String], playoffs: [String: Playoff] = [:], createdBy: UUID? = nil, createdAt: Date, updatedAt: HLC
    ) {
        self.playoffs = playoffs
        self.id = id
        self.name = name
        self.divisions = divisions
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Who won a tie for first, and the rounds whose standings it decided: a result stands only
/// for those (a round added afterwards makes first place a new question).
public struct Playoff: Hashable, Sendable, Codable {
    public var winner: UUID
    public var rounds: [UUID]

    public init(winner: UUID, rounds: [UUID]) {
        self.winner = winner
        self.rounds = rounds
    }
}

/// The new-event form and `POST /api/v1/events`: a name and the division names in order.
public struct EventDraft: Sendable, Hashable {
    public var name: String?
    public var divisions: [String]
    /// The season the night belongs to (its id as text), if any.
    public var seasonID: String?
    /// The day it is played, "YYYY-MM-DD" (blank: no date).
    public var playedOn: String?

    public init(name: String? = nil, divisions: [String] = [], seasonID: String? = nil, playedOn: String? = nil) {
        self.name = name
        self.divisions = divisions
        self.seasonID = seasonID
        self.playedOn = playedOn
    }

    /// Reads divisions typed in one field: "MPO, FPO, MA1" or one per line.
    public static func divisionList(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: { $0 == "," || $0.isNewline }).map(String.init)
    }

    public struct Valid: Sendable, Hashable {
        public var name: String
        public var divisions: [String]
        public var seasonID: UUID?
        public var playedOn: String?

        public init(name: String, divisions: [String], seasonID: UUID? = nil, playedOn: String? = nil) {
            self.name = name
            self.divisions = divisions
            self.seasonID = seasonID
            self.playedOn = playedOn
        }
    }

    public func validated() throws(FieldErrors) -> Valid {
        var errors = FieldErrors()
        let name = TextRules.name(TextRules.cleaned(self.name), field: "name", label: "Event name", maxLength: 80, into: &errors)
        let names = Division.list(divisions, owner: "An event", into: &errors)
        let season = TextRules.cleaned(seasonID)
        let seasonID = UUID(text: season)
        if !season.isEmpty, seasonID == nil { errors.add("seasonID", "seasonID is a season's id.") }
        let playedOn = SeasonDraft.day(playedOn, field: "playedOn", into: &errors)
        try errors.throwIfAny()
        return Valid(name: name, divisions: names, seasonID: seasonID, playedOn: playedOn)
    }
}

public enum Division {
    public static let maxLength = 24

    /// Division names as typed, in order: blanks skipped, each valid and listed once, at most
    /// `Event.divisionCountRange.upperBound` (an event's or a season's).
    static func list(_ raw: [String], owner: String, into errors: inout FieldErrors) -> [String] {
        var names: [String] = []
        for item in raw {
            let division = TextRules.cleaned(item)
            if division.isEmpty { continue }
            guard let valid = validated(division) else {
                errors.add(
                    "divisions", "Division names are 1 to \(maxLength) letters, digits, spaces or dashes (\"\(division.prefix(40))\" is not).")
                continue
            }
            if names.contains(where: { $0.caseInsensitiveCompare(valid) == .orderedSame }) {
                let message = "Division \(valid) is listed twice."
                if !errors.entries.contains(where: { $0.field == "divisions" && $0.message.caseInsensitiveCompare(message) == .orderedSame }) {
                    errors.add("divisions", message)
                }
                continue
            }
            names.append(valid)
        }
        if names.count > Event.divisionCountRange.upperBound {
            errors.add("divisions", "\(owner) can have at most \(Event.divisionCountRange.upperBound) divisions.")
        }
        return names
    }

    /// A player's usual division as typed: "" (none) or a valid division name.
    public static func usual(_ raw: String?, field: String = "division") throws(FieldErrors) -> String {
        let text = TextRules.cleaned(raw)
        if text.isEmpty { return "" }
        guard let name = validated(text) else {
            throw FieldErrors(field, "Division names are 1 to \(maxLength) letters, digits, spaces, dashes or +.")
        }
        return name
    }

    /// A division name as it is shown and compared: letters, digits, spaces, dashes, "+".
    public static func validated(_ text: String) -> String? {
        let name = TextRules.cleaned(text)
        guard (1...maxLength).contains(name.count),
            name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || " -+".unicodeScalars.contains($0) })
        else { return nil }
        return name
    }
}
