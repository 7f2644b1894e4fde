import Foundation

public struct StandingsEntry: Hashable, Sendable, Ranked {
    /// "1", "T2", "–" for a player who has not scored a hole yet, "DNF".
    public var position: String
    public var playerID: UUID
    public var displayName: String
    public var handle: String
    public var toPar: Int
    public var thru: Int
    public var strokes: Int
    public var dnf: Bool
    /// Empty in a round without divisions.
    public var division: String = ""
    /// On a league night with handicaps: the throws the player's frozen handicap takes off
    /// this round (nil: none yet), and their position on net (among the field or the division).
    public var handicap: Int?
    public var netPosition = ""
    /// On a putting round: the points scored and the putts made (`toPar` is minus the points,
    /// so the most points rank first; `strokes` is the putts made).
    public var points: Int?
    /// On a mulligan night: the mulligans used over the current scores, and the player's
    /// allowance (given and bought).
    public var mulligans: Int?
    public var mulliganAllowance: Int?

    /// Gross minus the handicap; gross for a player without one.
    public var net: Int { toPar - (handicap ?? 0) }

    var started: Bool { thru > 0 }
    var holesPlayed: Int { thru }
}

public struct ScoreConflictSummary: Hashable, Sendable {
    public var playerID: UUID
    public var hole: Int
    /// Winner first, then the other leaves in the same deterministic order.
    public var eventIDs: [UUID]
}

/// One division's own standings: the same entries, positioned among the division only.
public struct DivisionStandings: Hashable, Sendable {
    public var name: String
    public var entries: [StandingsEntry]
}

/// A round's leaderboard: a pure function of (course, round, players, events).
public struct Standings: Hashable, Sendable {
    public var roundID: UUID
    /// The whole field in order, positioned across divisions.
    public var entries: [StandingsEntry]
    /// Each division in the club's order; empty in a round without divisions.
    public var divisions: [DivisionStandings]
    public var conflicts: [ScoreConflictSummary]
    public var holeCount: Int
    /// Some player has a handicap: the board shows net beside gross.
    public var hasNet = false

    public static func compute(course: Course, round: Round, players: [Player], events: [ScoreEvent], divisionOrder: [String] = []) -> Standings {
        let scores = CurrentScores(events: events.filter { $0.roundID == round.id })
        return compute(course: course, round: round, players: players, scores: scores, divisionOrder: divisionOrder)
    }

    /// `handicaps`: on a league night, the throws each player's frozen handicap takes off
    /// this round.
    public static func compute(
        course: Course, round: Round, players: [Player], scores: CurrentScores, divisionOrder: [String] = [], handicaps: [UUID: Int] = [:],
        netUnplaced: Bool = false, mulliganSales: [MulliganSale] = []
    ) -> Standings {
        let putting = round.format == .putting ? round.putting : nil
        // A putting round's lies are its holes, whichever course it is played at.
        let holes = putting.map { $0.lies.map { Hole(number: $0.number, par: 0) } } ?? course.holes
        let pars = Dictionary(holes.map { ($0.number, $0.par) }, uniquingKeysWith: { first, _ in first })
        let playersByID = Dictionary(players.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

        var rows: [StandingsEntry] = []
        for playerID in round.playerIDs {
            let player = playersByID[playerID]
            var strokes = 0
            var par = 0
            var thru = 0
            var dnf = false
            var points = 0
            var mulligans = 0
            for hole in holes {
                guard let state = scores[playerID, hole.number] else { continue }
                thru += 1
                mulligans += state.winner.mulligans
                if let score = state.winner.score {
                    strokes += score
                    par += pars[hole.number] ?? 0
                    points += putting?.points(made: score, at: hole.number) ?? 0
                } else {
                    dnf = true
                }
            }
            // A completed round is over: a player with holes left unscored did not finish it.
            if round.status == .completed && thru < holes.count { dnf = true }
            // A player who withdrew after scoring stays on the board, as did-not-finish.
            if round.withdrawn.contains(playerID) { dnf = true }
            var row = StandingsEntry(
                position: "", playerID: playerID,
                displayName: player?.displayName ?? "Unknown player",
                handle: player?.handle.value ?? "",
                toPar: putting == nil ? strokes - par : -points, thru: thru, strokes: strokes, dnf: dnf,
                division: round.divisions[playerID] ?? "", handicap: putting == nil ? handicaps[playerID] : nil
            )
            if putting != nil { row.points = points }
            if let rule = round.mulligans {
                row.mulligans = mulligans
                row.mulliganAllowance = rule.given + MulliganBook.bought(by: playerID, mulliganSales, forSale: rule.forSale)
            }
            rows.append(row)
        }
        let hasNet = rows.contains { $0.handicap != nil }
        Ranking.rank(&rows)
        if hasNet { positionNet(&rows, unplaced: netUnplaced) }

        let divisions = Divisions.ordered(present: rows.map(\.division), preferred: divisionOrder).map { name in
            var members = rows.filter { $0.division == name }
            Ranking.rank(&members)
            if hasNet { positionNet(&members, unplaced: netUnplaced) }
            return DivisionStandings(name: name, entries: members)
        }

        let conflicts = scores.conflicts
            .filter { round.playerIDs.contains($0.0.playerID) }
            .map { ScoreConflictSummary(playerID: $0.0.playerID, hole: $0.0.hole, eventIDs: $0.1.leaves.map(\.id)) }
        return Standings(
            roundID: round.id, entries: rows, divisions: divisions, conflicts: conflicts, holeCount: holes.count, hasNet: hasNet)
    }

    /// Net positions by the same rule as gross ones, over the same rows (`unplaced`: without
    /// those who have no handicap yet).
    static func positionNet(_ rows: inout [StandingsEntry], unplaced: Bool) {
        var onNet = rows.map { row in
            var copy = row
            copy.toPar = row.net
            if unplaced, row.handicap == nil { copy.dnf = true }
            return copy
        }
        Ranking.rank(&onNet)
        let positions = Dictionary(onNet.map { ($0.playerID, $0.position) }, uniquingKeysWith: { first, _ in first })
        for index in rows.indices {
            let unplacedHere = unplaced && rows[index].handicap == nil && !rows[index].dnf
            rows[index].netPosition = unplacedHere ? "–" : positions[rows[index].playerID] ?? ""
        }
    }
}
