import Foundation

/// What the event page shows: each division's standings with every round's score, thru for
/// the round in progress, and a playoff to decide where first place is tied at the end.
public struct EventBoardView: Sendable {
    public struct RoundCell: Sendable {
        public var text: String
        public var toPar: String?
    }

    public struct Row: Sendable {
        public var position: String
        public var playerID: String
        public var displayName: String
        public var rounds: [RoundCell]
        public var total: String
        public var toPar: String
        public var toParClass: String
        public var thru: String
        public var playoff: String
        public var inPlayoff: Bool
        /// On a league night with handicaps: the night's handicap ("" for none yet), the net
        /// result (gross minus its throws; gross for a player without one) and its position.
        public var handicap = ""
        public var net = ""
        public var netClass = "none"
        public var netPosition = ""
    }

    public struct Division: Sendable {
        public var name: String
        public var hasName: Bool
        public var rows: [Row]
        public var playoffPending: Bool
        /// The tied players, for the coach's playoff form.
        public var tied: [Row]
        public var hasNet = false
    }

    public struct RoundItem: Sendable {
        public var id: String
        public var name: String
        public var status: String
    }

    public var eventID: String
    public var name: String
    public var divisionNames: String
    public var rounds: [RoundItem]
    public var divisions: [Division]
    public var isFinal: Bool
    public var hasRounds: Bool
    public var hasNet: Bool
    /// The total and score columns' headings: a putting night totals putts made and ranks by
    /// points (its round is the night's only one).
    public var totalHeading = "Total"
    public var scoreHeading = "To par"

    /// `handicaps`: on a league night with handicaps, each player's (value, throws off tonight).
    public init(
        event: Event, rounds: [RoundSnapshot], standings: EventStandings, handicaps: [UUID: (value: Double, strokes: Int)]? = nil,
        unplaced: Bool = false
    ) {
        hasNet = handicaps != nil
        let putting = !rounds.isEmpty && rounds.allSatisfy { $0.round.format == .putting }
        if putting {
            totalHeading = "Made"
            scoreHeading = "Points"
        }
        eventID = Format.id(event.id)
        name = event.name
        divisionNames = event.divisions.joined(separator: " · ")
        self.rounds = rounds.map { RoundItem(id: Format.id($0.round.id), name: $0.round.name, status: $0.round.status.rawValue) }
        hasRounds = !rounds.isEmpty
        isFinal = standings.isFinal
        divisions = standings.divisions.map { division in
            let net = handicaps.map { EventNet.of(division, handicaps: $0, unplaced: unplaced) } ?? [:]
            let rows = division.entries.map { entry in
                var row = Row(
                    position: entry.position, playerID: Format.id(entry.playerID), displayName: entry.displayName,
                    rounds: entry.rounds.map { result in
                        guard let result, result.thru > 0 else { return RoundCell(text: "–", toPar: nil) }
                        if result.dnf { return RoundCell(text: "DNF", toPar: nil) }
                        return RoundCell(text: String(result.strokes), toPar: putting ? "\(-result.toPar) points" : ScoreFormat.toPar(result.toPar))
                    },
                    total: entry.holesPlayed == 0 ? "–" : String(entry.total),
                    toPar: entry.dnf ? "DNF" : (entry.holesPlayed == 0 ? "–" : putting ? String(-entry.toPar) : ScoreFormat.toPar(entry.toPar)),
                    toParClass: entry.dnf || entry.holesPlayed == 0 || putting ? "none" : ScoreFormat.toParClass(entry.toPar),
                    thru: entry.thruOf == 0 ? "–" : ScoreFormat.thru(entry.thru, of: entry.thruOf),
                    playoff: entry.playoff == .won ? "Won playoff" : (entry.playoff == nil ? "" : "Playoff"),
                    inPlayoff: entry.playoff != nil
                )
                if let mine = net[entry.playerID] {
                    row.handicap = mine.handicap.map { String(format: "%.1f", $0) } ?? "–"
                    row.net = ScoreFormat.toPar(mine.net)
                    row.netClass = ScoreFormat.toParClass(mine.net)
                    row.netPosition = mine.position
                }
                return row
            }
            var made = Division(
                name: division.name, hasName: !division.name.isEmpty, rows: rows, playoffPending: division.playoffPending,
                tied: division.playoffPending ? rows.filter(\.inPlayoff) : [])
            made.hasNet = handicaps != nil
            return made
        }
    }

}

/// A league night's net results in one division: each player who has scored and finished so
/// far gets gross minus their handicap's throws (gross without a handicap) and a position on
/// it, lowest first, ties shared (T2). The event page and the standings API both read this.
public enum EventNet {
    public struct Result: Hashable, Sendable {
        /// The handicap's value (nil: none yet), the net result and its position.
        public var handicap: Double?
        public var net: Int
        public var position: String
    }

    /// `unplaced`: the season leaves players without a handicap yet off net places.
    public static func of(_ division: EventDivisionStandings, handicaps: [UUID: (value: Double, strokes: Int)], unplaced: Bool = false) -> [UUID:
        Result]
    {
        var scored = division.entries.filter { $0.holesPlayed > 0 && !$0.dnf && (!unplaced || handicaps[$0.playerID] != nil) }.map { entry in
            (entry.playerID, handicaps[entry.playerID]?.value, entry.toPar - (handicaps[entry.playerID]?.strokes ?? 0))
        }
        scored.sort { $0.2 < $1.2 }
        var result: [UUID: Result] = [:]
        var start = 0
        while start < scored.count {
            var end = start
            while end + 1 < scored.count, scored[end + 1].2 == scored[start].2 { end += 1 }
            for (player, value, net) in scored[start...end] {
                result[player] = Result(handicap: value, net: net, position: end > start ? "T\(start + 1)" : "\(start + 1)")
            }
            start = end + 1
        }
        return result
    }
}
