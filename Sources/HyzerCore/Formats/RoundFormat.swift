import Foundation

/// How a round is played and scored. Stroke play is every player for themselves; the team
/// formats record one score per team per hole (the team takes a player's place on the boards).
public enum RoundFormat: String, Codable, CaseIterable, Sendable {
    case stroke, bestShot, alternateShot, bestDisc, worstShot, match, putting

    public static let teamFormats: [RoundFormat] = [.bestShot, .alternateShot, .bestDisc, .worstShot]

    public var isTeam: Bool { Self.teamFormats.contains(self) }

    public var label: String {
        switch self {
        case .stroke: "Stroke play"
        case .bestShot: "Best shot"
        case .alternateShot: "Alternate shot"
        case .bestDisc: "Best disc"
        case .worstShot: "Worst shot"
        case .match: "Match play"
        case .putting: "Putting"
        }
    }

    /// The rule in a sentence, for the round page and the card.
    public var rule: String {
        switch self {
        case .stroke: "Each player counts their own throws."
        case .bestShot: "Everyone throws; the team plays on from the best lie. One score per team per hole."
        case .alternateShot: "Team-mates take turns with one disc. One score per team per hole."
        case .bestDisc: "Everyone tees off; the team picks the best drive and plays that disc on, taking turns. One score per team per hole."
        case .worstShot: "Everyone throws; the team plays on from the worst lie. One score per team per hole."
        case .match: "Two sides play hole by hole: the lower score wins the hole."
        case .putting: "Putts from stations at set distances: points for each made putt."
        }
    }

    /// Reads the API's and the form's value: blank is stroke play.
    public static func parse(_ raw: String?, into errors: inout FieldErrors) -> RoundFormat {
        let text = TextRules.cleaned(raw)
        if text.isEmpty { return .stroke }
        guard let format = RoundFormat(rawValue: text) else {
            errors.add("format", "Format must be one of \(allCases.map(\.rawValue).joined(separator: ", ")).")
            return .stroke
        }
        return format
    }
}

/// How a team round treats a player left over by an odd count (a "cali"), who plays alone.
public enum CaliRule: String, Codable, CaseIterable, Sendable {
    /// Throws twice from every lie and plays the better, as a team of two would.
    case twoDiscs
    /// Plays their own disc with one extra throw (a mulligan) on every hole.
    case extraThrowPerHole

    public var label: String {
        switch self {
        case .twoDiscs: "Two discs: the cali throws twice from every lie and plays the better, like a team of two."
        case .extraThrowPerHole: "One extra throw per hole: the cali plays one disc and may rethrow once on each hole."
        }
    }
}
