import Foundation

public struct EventRoundResult: Hashable, Sendable {
    public var roundID: UUID
    public var strokes: Int
    public var toPar: Int
    public var thru: Int
    public var holeCount: Int
    public var dnf: Bool
}

public enum PlayoffState: String, Hashable, Sendable {
    /// Tied for first at the end of the event; a coach records who won the playoff.
    case pending
    case won
    case lost
}

public struct EventStandingsEntry: Hashable, Sendable, Ranked {
    public var position: String
    public var playerID: UUID
    public var displayName: String
    public var handle: String
    public var division: String
    /// The sum of each round's to-par, each on its own layout.
    public var toPar: Int
    public var total: Int
    /// Holes played in the round in progress (the latest this player has started).
    public var thru: Int
    public var thruOf: Int
    /// One per round of the event in order; nil where the player is not in that round.
    public var rounds: [EventRoundResult?]
    public var dnf: Bool
    public var playoff: PlayoffState?

    public var holesPlayed: Int { rounds.compactMap { $0?.thru }.reduce(0, +) }
    var started: Bool { holesPlayed > 0 }
}

public struct EventDivisionStandings: Hashable, Sendable {
    public var name: String
    public var entries: [EventStandingsEntry]
    /// Players tied for first at the end of the event with no playoff result recorded.
    public var playoffPending: Bool
}

/// An event's standings: a pure function of its rounds' standings. Totals add each round's
/// to-par on that round's layout; a DNF in any round ranks after every finisher; a tie for
/// first once every round is completed is a playoff, decided by the recorded winner.
public struct EventStandings: Hashable, Sendable {
    public var eventID: UUID
    public var roundIDs: [UUID]
    public var divisions: [EventDivisionStandings]
    /// Every round of the event is completed.
    public var isFinal: Bool

    public struct RoundInput: Sendable {
        public var round: Round
        public var standings: Standings

        public init(round: Round, standings: Standings) {
            self.round = round
            self.standings = standings
        }
    }

    /// `rounds` in the order they are played.
    public static func compute(event: Event, rounds: [RoundInput]) -> EventStandings {
        var players: [UUID: EventStandingsEntry] = [:]
        var order: [UUID] = []
        for (index, input) in rounds.enumerated() {
            for entry in input.standings.entries {
                if players[entry.playerID] == nil {
                    order.append(entry.playerID)
                    players[entry.playerID] = EventStandingsEntry(
                        position: "", playerID: entry.playerID, displayName: entry.displayName, handle: entry.handle,
                        division: entry.division, toPar: 0, total: 0, thru: 0, thruOf: 0,
                        rounds: Array(repeating: nil, count: rounds.count), dnf: false, playoff: nil)
                }
                guard var row = players[entry.playerID] else { continue }
                row.rounds[index] = EventRoundResult(
                    roundID: input.round.id, strokes: entry.strokes, toPar: entry.toPar, thru: entry.thru,
                    holeCount: input.standings.holeCount, dnf: entry.dnf)
                if !entry.division.isEmpty { row.division = entry.division }
                if entry.thru > 0 {
                    row.toPar += entry.toPar
                    row.total += entry.strokes
                    row.thru = entry.thru
                    row.thruOf = input.standings.holeCount
                }
                row.dnf = row.dnf || entry.dnf
                players[entry.playerID] = row
            }
        }

        // A completed round a player did not finish (absent, or holes left unscored) is a DNF
        // for the event: it must never count as a round at even par.
        for (index, input) in rounds.enumerated() where input.round.status == .completed {
            for id in order {
                guard var row = players[id] else { continue }
                let result = row.rounds[index]
                if result == nil || (result?.dnf == false && (result?.thru ?? 0) < input.standings.holeCount) {
                    row.dnf = true
                    players[id] = row
                }
            }
        }

        let isFinal = !rounds.isEmpty && rounds.allSatisfy { $0.round.status == .completed }
        let roundIDs = Set(rounds.map(\.round.id))
        let rows = order.compactMap { players[$0] }
        let names =
            event.divisions.isEmpty && rows.allSatisfy({ $0.division.isEmpty })
            ? [""]
            : Divisions.ordered(present: rows.map(\.division), preferred: event.divisions) + (rows.contains { $0.division.isEmpty } ? [""] : [])
        let divisions = names.map { name in
            var members = rows.filter { $0.division == name }
            Ranking.rank(&members)
            let playoff = event.playoffs[name].flatMap { Set($0.rounds) == roundIDs ? $0 : nil }
            let pending = isFinal && decidePlayoff(&members, winner: playoff?.winner)
            return EventDivisionStandings(name: name, entries: members, playoffPending: pending)
        }
        return EventStandings(eventID: event.id, roundIDs: rounds.map(\.round.id), divisions: divisions, isFinal: isFinal)
    }

    /// Marks a tie for first as a playoff; true while its winner is not recorded. Playoff
    /// throws never count: only the positions of the tied players change.
    static func decidePlayoff(_ rows: inout [EventStandingsEntry], winner: UUID?) -> Bool {
        let tied = rows.indices.filter { rows[$0].position == "T1" }
        guard tied.count > 1 else { return false }
        guard let winner, let winnerIndex = tied.first(where: { rows[$0].playerID == winner }) else {
            for index in tied { rows[index].playoff = .pending }
            return true
        }
        let others = tied.filter { $0 != winnerIndex }
        for index in others {
            rows[index].playoff = .lost
            rows[index].position = others.count > 1 ? "T2" : "2"
        }
        rows[winnerIndex].playoff = .won
        rows[winnerIndex].position = "1"
        // The winner heads the list.
        let row = rows.remove(at: winnerIndex)
        rows.insert(row, at: tied[0])
        return false
    }

    public func division(_ name: String) -> EventDivisionStandings? {
        divisions.first { $0.name == name }
    }
}
