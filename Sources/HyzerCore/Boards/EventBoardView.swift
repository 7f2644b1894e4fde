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
        var netScore: Int?
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

    /// `handicaps`: on a league night with handicaps, each player's (value, throws off tonight).
    public init(event: Event, rounds: [RoundSnapshot], standings: EventStandings, handicaps: [UUID: (value: Double, strokes: Int)]? = nil) {
        hasNet = handicaps != nil
        eventID = Format.id(event.id)
        name = event.name
        divisionNames = event.divisions.joined(separator: " · ")
        self.rounds = rounds.map { RoundItem(id: Format.id($0.round.id), name: $0.round.name, status: $0.round.status.rawValue) }
        hasRounds = !rounds.isEmpty
        isFinal = standings.isFinal
        divisions = standings.divisions.map { division in
            var rows = division.entries.map { entry in
                var row = Row(
                    position: entry.position, playerID: Format.id(entry.playerID), displayName: entry.displayName,
                    rounds: entry.rounds.map { result in
                        guard let result, result.thru > 0 else { return RoundCell(text: "–", toPar: nil) }
                        if result.dnf { return RoundCell(text: "DNF", toPar: nil) }
                        return RoundCell(text: String(result.strokes), toPar: ScoreFormat.toPar(result.toPar))
                    },
                    total: entry.holesPlayed == 0 ? "–" : String(entry.total),
                    toPar: entry.dnf ? "DNF" : (entry.holesPlayed == 0 ? "–" : ScoreFormat.toPar(entry.toPar)),
                    toParClass: entry.dnf || entry.holesPlayed == 0 ? "none" : ScoreFormat.toParClass(entry.toPar),
                    thru: entry.thruOf == 0 ? "–" : ScoreFormat.thru(entry.thru, of: entry.thruOf),
                    playoff: entry.playoff == .won ? "Won playoff" : (entry.playoff == nil ? "" : "Playoff"),
                    inPlayoff: entry.playoff != nil
                )
                if let handicaps, entry.holesPlayed > 0, !entry.dnf {
                    let mine = handicaps[entry.playerID]
                    let net = entry.toPar - (mine?.strokes ?? 0)
                    row.handicap = mine.map { String(format: "%.1f", $0.value) } ?? "–"
                    row.net = ScoreFormat.toPar(net)
                    row.netClass = ScoreFormat.toParClass(net)
                    row.netScore = net
                }
                return row
            }
            if handicaps != nil { Self.positionNet(&rows) }
            var made = Division(
                name: division.name, hasName: !division.name.isEmpty, rows: rows, playoffPending: division.playoffPending,
                tied: division.playoffPending ? rows.filter(\.inPlayoff) : [])
            made.hasNet = handicaps != nil
            return made
        }
    }

    /// Net positions among players with a net result: lowest first, ties shared (T2).
    static func positionNet(_ rows: inout [Row]) {
        let scored = rows.indices.filter { rows[$0].netScore != nil }.sorted { (rows[$0].netScore ?? 0) < (rows[$1].netScore ?? 0) }
        var start = 0
        while start < scored.count {
            var end = start
            while end + 1 < scored.count, rows[scored[end + 1]].netScore == rows[scored[start]].netScore { end += 1 }
            for index in scored[start...end] { rows[index].netPosition = end > start ? "T\(start + 1)" : "\(start + 1)" }
            start = end + 1
        }
    }
}
