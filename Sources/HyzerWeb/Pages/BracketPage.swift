import Foundation
import HyzerCore
import HyzerStore

/// An event's bracket as its matches stand: rounds side by side, each match with its players,
/// how it stands and its round. The page and its live stream render this one fragment.
struct BracketBoard: Sendable {
    struct Side: Sendable {
        var name: String
        var seed: String?
        var won: Bool
    }

    struct MatchCell: Sendable {
        var id: String
        var a: Side
        var b: Side
        var status: String
        var roundID: String?
        var deadline: String?
        /// A coach may start it: both players known, no round under way, not decided.
        var canStart: Bool
        /// "Ann v Bo", for the coach's start link.
        var label: String
    }

    struct Column: Sendable {
        var name: String
        var matches: [MatchCell]
    }

    var eventID: String
    var columns: [Column]
    var champion: String?

    init(_ snapshot: DomainStore.BracketSnapshot) {
        eventID = Format.id(snapshot.bracket.eventID)
        let names = snapshot.names
        let count = snapshot.state.rounds.count
        champion = snapshot.state.champion.map { names[$0] ?? "Unknown player" }
        columns = snapshot.state.rounds.enumerated().map { index, matches in
            Column(
                name: BracketRoundName.name(index + 1, of: count),
                matches: matches.map { match in
                    func side(_ id: UUID?, _ seed: Int?) -> Side {
                        Side(
                            name: id.map { names[$0] ?? "Unknown player" } ?? (match.bye ? "Bye" : "To be decided"), seed: seed.map(String.init),
                            won: id != nil && id == match.winner)
                    }
                    let status: String =
                        if match.bye {
                            "Through on a bye"
                        } else if let winner = match.winner, let how = match.wonHow {
                            "\(names[winner] ?? "Unknown player") \(how)"
                        } else if let play = match.play, play.played > 0 {
                            play.inSuddenDeath
                                ? "All square: sudden death"
                                : play.up == 0
                                    ? "All square after \(play.played)"
                                    : "\((play.up > 0 ? match.a : match.b).flatMap { names[$0] } ?? "") \(abs(play.up)) up after \(play.played)"
                        } else if match.roundIDs.isEmpty {
                            match.a != nil && match.b != nil ? "Ready to play" : "Waiting"
                        } else {
                            "Under way"
                        }
                    return MatchCell(
                        id: Format.id(match.id), a: side(match.a, match.seedA), b: side(match.b, match.seedB), status: status,
                        roundID: match.roundIDs.last.map(Format.id), deadline: match.deadline.map { Format.date($0) },
                        canStart: match.ready && (match.roundIDs.isEmpty || match.play?.inSuddenDeath == true),
                        label: "\(side(match.a, nil).name) v \(side(match.b, nil).name)")
                })
        }
    }
}

/// `/events/{id}/bracket`: the live bracket, on a phone or (`?tv=1`) full screen.
struct BracketPage: Sendable {
    var title: String
    var eventName: String
    var board: BracketBoard
    var tv: Bool
    var error: String?
    /// For a coach: the matches whose round can be started (or whose sudden death can).
    var ready: [BracketBoard.MatchCell]
    var hasReady: Bool

    init(_ snapshot: DomainStore.BracketSnapshot, tv: Bool) {
        title = "Bracket"
        eventName = snapshot.event.name
        board = BracketBoard(snapshot)
        self.tv = tv
        ready = board.columns.flatMap(\.matches).filter(\.canStart)
        hasReady = !ready.isEmpty
    }
}

/// The form that makes a bracket: the players ticked, seeded by rating or handicap.
struct BracketFormPage: Sendable {
    var title: String
    var eventID: String
    var players: [Option]
    var error: String?
}
