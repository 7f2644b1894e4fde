import Foundation

/// What a leaderboard ranks: a round's entries and an event's alike.
protocol Ranked: Sendable {
    var position: String { get set }
    var playerID: UUID { get }
    var displayName: String { get }
    var toPar: Int { get }
    var holesPlayed: Int { get }
    var dnf: Bool { get }
    var started: Bool { get }
}

/// The ranking rule of every board: players who have scored rank by to-par; then players
/// yet to start; DNF last. Equal to-par shares a position shown as `T2` (no count-back).
enum Ranking {
    static func rank<Row: Ranked>(_ rows: inout [Row]) {
        rows.sort { ranksAbove($0, $1) }
        assignPositions(&rows)
    }

    /// Within a tie the order is stable but says nothing: more holes played, then name.
    static func ranksAbove<Row: Ranked>(_ lhs: Row, _ rhs: Row) -> Bool {
        func tier(_ row: Row) -> Int { row.dnf ? 2 : (row.started ? 0 : 1) }
        if tier(lhs) != tier(rhs) { return tier(lhs) < tier(rhs) }
        if tier(lhs) == 0, lhs.toPar != rhs.toPar { return lhs.toPar < rhs.toPar }
        if lhs.holesPlayed != rhs.holesPlayed { return lhs.holesPlayed > rhs.holesPlayed }
        if lhs.displayName != rhs.displayName { return lhs.displayName < rhs.displayName }
        return lhs.playerID.lowercasedText < rhs.playerID.lowercasedText
    }

    static func assignPositions<Row: Ranked>(_ rows: inout [Row]) {
        let ranked = rows.indices.filter { !rows[$0].dnf && rows[$0].started }
        for index in rows.indices where !rows[index].started || rows[index].dnf {
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

/// Division names in the club's order, then any others in the order they first appear.
public enum Divisions {
    public static func ordered(present: [String], preferred: [String]) -> [String] {
        let names = present.filter { !$0.isEmpty }
        var result = preferred.filter { names.contains($0) }
        for name in names where !result.contains(name) { result.append(name) }
        return result
    }
}
