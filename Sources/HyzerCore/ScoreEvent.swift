import Foundation

/// Strokes on one hole: a count from 1 to 99, or an explicit "did not finish".
public enum Strokes: Hashable, Sendable, CustomStringConvertible {
    case count(Int)
    case dnf

    public static let range = 1...99
    /// What a stored count may be: 0 too, the putts made from one lie of a putting round.
    public static let storedRange = 0...99

    /// Reads what a person or client typed: a number, or "DNF" (also "WD" for a withdrawal).
    public static func parse(_ raw: String?) -> Result<Strokes, FieldErrors> {
        let text = raw ?? ""
        if TextRules.cleaned(text).isEmpty {
            return .failure(FieldErrors("strokes", "Enter the strokes for the hole."))
        }
        if ["DNF", "WD"].contains(text.uppercased()) {
            return .success(.dnf)
        }
        guard let value = TextRules.wholeNumber(text) else {
            return .failure(FieldErrors("strokes", "Strokes must be a number from \(range.lowerBound) to \(range.upperBound), or DNF."))
        }
        return validated(value)
    }

    public static func validated(_ value: Int) -> Result<Strokes, FieldErrors> {
        guard range.contains(value) else {
            return .failure(FieldErrors("strokes", "Strokes must be between \(range.lowerBound) and \(range.upperBound)."))
        }
        return .success(.count(value))
    }

    public var count: Int? {
        if case .count(let value) = self { return value }
        return nil
    }

    public var description: String {
        switch self {
        case .count(let value): String(value)
        case .dnf: "DNF"
        }
    }
}

/// One score as it was entered. Append-only and immutable: a correction is a new event
/// that supersedes the one it corrects.
public struct ScoreEvent: Identifiable, Hashable, Sendable {
    public var id: UUID
    public var roundID: UUID
    public var playerID: UUID
    public var hole: Int
    public var strokes: Strokes
    /// The signed-in player who entered it; nil for entries made before accounts exist.
    public var reportedBy: UUID?
    public var deviceID: UUID
    /// The event this one corrects.
    public var supersedes: UUID?
    /// Other current scores of the same hole this correction replaces: a correction made
    /// while a hole is in conflict closes every leaf the person saw, not only the one named.
    public var resolves: [UUID]
    public var recordedAt: HLC
    /// Penalty throws on the hole, counted in the hole's score on top of `strokes` (the throws).
    public var penalties: Int
    /// Mulligans the player used on the hole (thrown again; `strokes` holds the throws that
    /// counted). They leave the score alone and count against the round's allowance.
    public var mulligans: Int

    public static let penaltyRange = 0...9
    public static let mulliganRange = 0...9

    public init(
        id: UUID, roundID: UUID, playerID: UUID, hole: Int, strokes: Strokes, reportedBy: UUID? = nil,
        deviceID: UUID, supersedes: UUID? = nil, resolves: [UUID] = [], recordedAt: HLC, penalties: Int = 0,
        mulligans: Int = 0
    ) {
        self.penalties = penalties
        self.mulligans = mulligans
        self.id = id
        self.roundID = roundID
        self.playerID = playerID
        self.hole = hole
        self.strokes = strokes
        self.reportedBy = reportedBy
        self.deviceID = deviceID
        self.supersedes = supersedes
        self.resolves = resolves
        self.recordedAt = recordedAt
    }

    /// Every event this one replaces.
    public var replaced: [UUID] {
        (supersedes.map { [$0] } ?? []) + resolves
    }

    /// Whether two events with one id say the same thing: a retried submission is a
    /// duplicate, the same id with other content is a client error.
    public func hasSameContent(as other: ScoreEvent) -> Bool {
        roundID == other.roundID && playerID == other.playerID && hole == other.hole
            && strokes == other.strokes && supersedes == other.supersedes && penalties == other.penalties
            && mulligans == other.mulligans
    }

    /// The hole's score: throws plus penalty throws; nil for a DNF.
    public var score: Int? { strokes.count.map { $0 + penalties } }

    /// What two scorekeepers must agree on for one player and hole.
    public var result: HoleResult { HoleResult(strokes: strokes, penalties: penalties, mulligans: mulligans) }

    /// "4", "5 (1 penalty)", "DNF": the hole's score as the scorecard and conflict lists show it.
    public var resultText: String { result.description }
}

/// A hole's entered result: throws, penalties and mulligans used. Entries of two scorekeepers
/// that differ in any are a mismatch (mulligans count against an allowance).
public struct HoleResult: Hashable, Sendable, CustomStringConvertible {
    public var strokes: Strokes
    public var penalties: Int
    public var mulligans: Int

    public init(strokes: Strokes, penalties: Int = 0, mulligans: Int = 0) {
        self.strokes = strokes
        self.penalties = penalties
        self.mulligans = mulligans
    }

    public var score: Int? { strokes.count.map { $0 + penalties } }

    /// "4", "5 (1 penalty)", "4 (1 mulligan)", "DNF".
    public var description: String {
        guard let score else { return strokes.description }
        var notes: [String] = []
        if penalties > 0 { notes.append("\(penalties) penalt\(penalties == 1 ? "y" : "ies")") }
        if mulligans > 0 { notes.append("\(mulligans) mulligan\(mulligans == 1 ? "" : "s")") }
        return notes.isEmpty ? String(score) : "\(score) (\(notes.joined(separator: ", ")))"
    }
}

/// The deterministic order used whenever one of several events must win: the greater HLC,
/// then the greater id. Every device applies it to the same set and so picks the same event.
extension ScoreEvent {
    public static func winsOver(_ lhs: ScoreEvent, _ rhs: ScoreEvent) -> Bool {
        if lhs.recordedAt != rhs.recordedAt { return lhs.recordedAt > rhs.recordedAt }
        return lhs.id.lowercasedText > rhs.id.lowercasedText
    }
}
