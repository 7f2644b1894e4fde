import Foundation

/// A match between two sides (players or teams) decided hole by hole from the scores they enter
/// as usual: the lower score wins a hole, equal scores halve it. A side is "up" by the holes it
/// has won more; it wins once it is up by more holes than are left ("3&2": three up with two to
/// play), or is up after the last ("1up"). Level after the last hole, the match goes on to
/// sudden death: the first hole won decides it ("20th": on the twentieth hole played).
public struct MatchPlay: Hashable, Sendable {
    public enum Side: String, Hashable, Sendable, Codable {
        case a, b
    }

    /// One hole in play order: each side's strokes (nil while unscored), or a concession.
    public struct Hole: Hashable, Sendable {
        public var a: Int?
        public var b: Int?
        /// The side that conceded the hole (it is the other side's).
        public var concededBy: Side?

        public init(a: Int?, b: Int?, concededBy: Side? = nil) {
            self.a = a
            self.b = b
            self.concededBy = concededBy
        }

        /// The hole's winner (nil: halved, or not yet played by both).
        var winner: Side?? {
            if let concededBy { return .some(concededBy == .a ? .b : .a) }
            guard let a, let b else { return nil }
            return .some(a < b ? .a : b < a ? .b : nil)
        }
    }

    public var wonByA: Int
    public var wonByB: Int
    public var halved: Int
    public var regulation: Int
    /// Holes played by both sides, in order (the regulation holes, then sudden death).
    public var played: Int
    /// Positive: a is up; negative: b is up.
    public var up: Int
    public var winner: Side?
    /// "3&2", "1up", "20th", "conceded"; nil while the match is under way.
    public var result: String?

    /// `regulation`: the round's holes; `holes` in play order, sudden-death holes after them;
    /// `concededBy`: a side that conceded the whole match.
    public static func compute(_ holes: [Hole], regulation: Int, concededBy: Side? = nil) -> MatchPlay {
        var match = MatchPlay(wonByA: 0, wonByB: 0, halved: 0, regulation: regulation, played: 0, up: 0, winner: nil, result: nil)
        for (index, hole) in holes.enumerated() {
            // A hole counts once both sides have played it, in order: a gap stops the count.
            guard let won = hole.winner else { break }
            match.played = index + 1
            switch won {
            case .a: match.wonByA += 1
            case .b: match.wonByB += 1
            case nil: match.halved += 1
            }
            match.up = match.wonByA - match.wonByB
            let left = max(regulation - match.played, 0)
            if match.played < regulation, abs(match.up) > left {
                match.decide(match.up > 0 ? .a : .b, "\(abs(match.up))&\(left)")
                break
            }
            if match.played == regulation, match.up != 0 {
                match.decide(match.up > 0 ? .a : .b, "\(abs(match.up))up")
                break
            }
            if match.played > regulation, let side = won {
                match.decide(side, Ordinal.text(match.played))
                break
            }
        }
        if let concededBy, match.winner == nil {
            match.decide(concededBy == .a ? .b : .a, "conceded")
        }
        return match
    }

    /// Level after the last regulation hole: the match goes on, hole by hole.
    public var inSuddenDeath: Bool { winner == nil && played >= regulation }

    private mutating func decide(_ side: Side, _ text: String) {
        winner = side
        result = text
    }

    /// "2 up", "All square", "1 down" as side a sees it.
    public var standing: String {
        up == 0 ? "All square" : "\(abs(up)) \(up > 0 ? "up" : "down")"
    }
}
