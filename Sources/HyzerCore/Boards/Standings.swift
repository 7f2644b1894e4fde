import Foundation

public struct StandingsEntry: Hashable, Sendable {
    /// "1", "T2", "–" for a player who has not scored a hole yet, "DNF".
    public var position: String
    public var playerID: UUID
    public var displayName: String
    public var handle: String
    public var toPar: Int
    public var thru: Int
    public var strokes: Int
    public var dnf: Bool
}

public struct ScoreConflictSummary: Hashable, Sendable {
    public var playerID: UUID
    public var hole: Int
    /// Winner first, then the other leaves in the same deterministic order.
    public var eventIDs: [UUID]
}

/// A round's leaderboard: a pure function of (course, round, players, events).
public struct Standings: Hashable, Sendable {
    public var roundID: UUID
    public var entries: [StandingsEntry]
    public var conflicts: [ScoreConflictSummary]
    public var holeCount: Int

    public static func compute(course: Course, round: Round, players: [Player], events: [ScoreEvent]) -> Standings {
        let scores = CurrentScores(events: events.filter { $0.roundID == round.id })
        return compute(course: course, round: round, players: players, scores: scores)
    }

    public static func compute(course: Course, round: Round, players: [Player], scores: CurrentScores) -> Standings {
        let pars = Dictionary(course.holes.map { ($0.number, $0.par) }, uniquingKeysWith: { first, _ in first })
        let playersByID = Dictionary(players.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

        var rows: [StandingsEntry] = []
        for playerID in round.playerIDs {
            let player = playersByID[playerID]
            var strokes = 0, par = 0, thru = 0
            var dnf = false
            for hole in course.holes {
                guard let state = scores[playerID, hole.number] else { continue }
                thru += 1
                switch state.winner.strokes {
                case .count(let count):
                    strokes += count
                    par += pars[hole.number] ?? 0
                case .dnf:
                    dnf = true
                }
            }
            rows.append(StandingsEntry(
                position: "", playerID: playerID,
                displayName: player?.displayName ?? "Unknown player",
                handle: player?.handle.value ?? "",
                toPar: strokes - par, thru: thru, strokes: strokes, dnf: dnf
            ))
        }

        rows.sort(by: ranksAbove)
        assignPositions(&rows)

        let conflicts = scores.conflicts
            .filter { round.playerIDs.contains($0.0.playerID) }
            .map { ScoreConflictSummary(playerID: $0.0.playerID, hole: $0.0.hole, eventIDs: $0.1.leaves.map(\.id)) }
        return Standings(roundID: round.id, entries: rows, conflicts: conflicts, holeCount: course.holes.count)
    }

    /// Players who have scored rank by to-par; then players yet to start; DNF last. Within
    /// a tie the order is stable but says nothing (no count-back): more holes played, then name.
    static func ranksAbove(_ lhs: StandingsEntry, _ rhs: StandingsEntry) -> Bool {
        func tier(_ entry: StandingsEntry) -> Int {
            entry.dnf ? 2 : (entry.thru == 0 ? 1 : 0)
        }
        if tier(lhs) != tier(rhs) { return tier(lhs) < tier(rhs) }
        if tier(lhs) == 0, lhs.toPar != rhs.toPar { return lhs.toPar < rhs.toPar }
        if lhs.thru != rhs.thru { return lhs.thru > rhs.thru }
        if lhs.displayName != rhs.displayName { return lhs.displayName < rhs.displayName }
        return lhs.playerID.lowercasedText < rhs.playerID.lowercasedText
    }

    static func assignPositions(_ rows: inout [StandingsEntry]) {
        let ranked = rows.indices.filter { !rows[$0].dnf && rows[$0].thru > 0 }
        for index in rows.indices where !ranked.contains(index) {
            rows[index].position = rows[index].dnf ? "DNF" : "–"
        }
        var start = 0
        while start < ranked.count {
            var end = start
            while end + 1 < ranked.count, rows[ranked[end + 1]].toPar == rows[ranked[start]].toPar { end += 1 }
            let label = end > start ? "T\(start + 1)" : "\(start + 1)"
            for offset in start...end { rows[ranked[offset]].position = label }
            start = end + 1
        }
    }
}
