import Foundation

/// What the leaderboard partial shows: one value for the leaderboard page, the round page,
/// the TV screen and the live stream, so they all read the same.
public struct LeaderboardView: Hashable, Sendable {
    public struct Row: Hashable, Sendable {
        public var position: String
        public var playerID: String
        public var displayName: String
        public var handle: String
        public var toPar: String
        public var toParClass: String
        public var thru: String
        public var strokes: String
        public var dnf: Bool
        public var signed: Bool
        /// Where the name leads, and the handle as shown ("@abe"): a player's page; a team (no
        /// handle, see `scoringView`) has no page of its own, and leads to its round's team list.
        /// Values rather than a section per row: the board is rendered for every change.
        public var link = ""
        public var handleText = ""
        /// On a night with handicaps: the throws taken off ("–" for none yet), net, its position.
        public var handicap = ""
        public var net = ""
        public var netClass = "none"
        public var netPosition = ""
        /// On a mulligan night: "1 of 3" (used of given and bought); empty otherwise.
        public var mulligans = ""
    }

    public var roundID: String
    public var roundName: String
    public var courseName: String
    public var status: String
    public var version: Int
    public var rows: [Row]
    /// Each division with its own positions; empty in a round without divisions.
    public var divisions: [Division]
    public var hasDivisions: Bool
    public var conflictCount: Int
    // Stored, not computed: templates find values by name (HyzerWeb's `MustacheParent`
    // conformance lists every stored one; a test checks it against reflection).
    public var hasConflicts: Bool
    public var isCompleted: Bool
    /// Net beside gross: a league night where some player has a handicap.
    public var hasNet: Bool
    /// The score columns' headings: to par and strokes, or on a putting round points and
    /// putts made.
    public var scoreHeading = "To par"
    public var countHeading = "Strokes"
    /// A mulligan night: the board has a Mulligans column.
    public var hasMulligans = false

    public struct Division: Hashable, Sendable {
        public var name: String
        public var rows: [Row]
    }

    public init(standings: Standings, roundName: String, courseName: String, status: RoundStatus, version: Int, signed: Set<UUID> = []) {
        roundID = standings.roundID.lowercasedText
        self.roundName = roundName
        self.courseName = courseName
        self.status = status.rawValue
        self.version = version
        conflictCount = standings.conflicts.count
        hasConflicts = conflictCount > 0
        isCompleted = status == .completed
        hasNet = standings.hasNet
        let hasNet = hasNet
        func row(_ entry: StandingsEntry) -> Row {
            var row = Row(
                position: entry.position,
                playerID: entry.playerID.lowercasedText,
                displayName: entry.displayName,
                handle: entry.handle,
                toPar: entry.dnf ? "DNF" : (entry.thru == 0 ? "–" : ScoreFormat.toPar(entry.toPar)),
                toParClass: entry.dnf || entry.thru == 0 ? "none" : ScoreFormat.toParClass(entry.toPar),
                thru: ScoreFormat.thru(entry.thru, of: standings.holeCount),
                strokes: entry.thru == 0 ? "–" : String(entry.strokes),
                dnf: entry.dnf,
                signed: signed.contains(entry.playerID)
            )
            if entry.handle.isEmpty {
                row.link = "/rounds/\(standings.roundID.lowercasedText)#teams"
            } else {
                row.link = "/players/\(row.playerID)"
                row.handleText = "@" + entry.handle
            }
            if let points = entry.points, !entry.dnf, entry.thru > 0 {
                row.toPar = String(points)
                row.toParClass = "none"
            }
            if let used = entry.mulligans, let allowance = entry.mulliganAllowance { row.mulligans = "\(used) of \(allowance)" }
            if hasNet {
                row.handicap = entry.handicap.map(String.init) ?? "–"
                let shown = !entry.dnf && entry.thru > 0
                row.net = entry.dnf ? "DNF" : (shown ? ScoreFormat.toPar(entry.net) : "–")
                row.netClass = shown ? ScoreFormat.toParClass(entry.net) : "none"
                row.netPosition = entry.netPosition
            }
            return row
        }
        if standings.entries.contains(where: { $0.points != nil }) {
            scoreHeading = "Points"
            countHeading = "Made"
        }
        hasMulligans = standings.entries.contains { $0.mulligans != nil }
        rows = standings.entries.map(row)
        divisions = standings.divisions.map { Division(name: $0.name, rows: $0.entries.map(row)) }
        hasDivisions = !divisions.isEmpty
    }

    /// The board of one division alone (the TV's page for it, a filtered leaderboard).
    public func only(_ division: String) -> LeaderboardView {
        var copy = self
        copy.divisions = divisions.filter { $0.name == division }
        copy.rows = copy.divisions.first?.rows ?? []
        return copy
    }
}
