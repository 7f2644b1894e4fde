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

    public init(name: String? = nil, divisions: [String] = []) {
        self.name = name
        self.divisions = divisions
    }

    /// Reads divisions typed in one field: "MPO, FPO, MA1" or one per line.
    public static func divisionList(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: { $0 == "," || $0.isNewline }).map(String.init)
    }

    public struct Valid: Sendable, Hashable {
        public var name: String
        public var divisions: [String]

        public init(name: String, divisions: [String]) {
            self.name = name
            self.divisions = divisions
        }
    }

    public func validated() throws(FieldErrors) -> Valid {
        var errors = FieldErrors()
        let name = TextRules.name(TextRules.cleaned(self.name), field: "name", label: "Event name", maxLength: 80, into: &errors)
        var names: [String] = []
        for raw in divisions {
            let division = TextRules.cleaned(raw)
            if division.isEmpty { continue }
            guard let valid = Division.validated(division) else {
                errors.add(
                    "divisions",
                    "Division names are 1 to \(Division.maxLength) letters, digits, spaces or dashes (\"\(division.prefix(40))\" is not).")
                continue
            }
            if names.contains(where: { $0.caseInsensitiveCompare(valid) == .orderedSame }) {
                errors.add("divisions", "Division \(valid) is listed twice.")
                continue
            }
            names.append(valid)
        }
        if names.count > Event.divisionCountRange.upperBound {
            errors.add("divisions", "An event can have at most \(Event.divisionCountRange.upperBound) divisions.")
        }
        try errors.throwIfAny()
        return Valid(name: name, divisions: names)
    }
}

public enum Division {
    public static let maxLength = 24

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
