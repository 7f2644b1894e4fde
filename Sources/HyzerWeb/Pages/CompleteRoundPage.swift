import Foundation
import HyzerCore
import HyzerStore

/// "Complete the round?" naming who it makes did-not-finish.
struct CompleteRoundPage: Sendable {
    struct Unfinished: Sendable {
        var name: String
        var thru: Int
    }

    var title: String
    var roundID: String
    var roundName: String
    var unfinished: [Unfinished]
    var hasUnfinished: Bool
    var holeCount: Int
    /// Withdrawn players: DNF already, named so "everyone finished" is never said over them.
    var withdrawn: [Unfinished]
    var hasWithdrawn: Bool
    /// Players of a round played on cards who have not signed ("3 of 17"), or nil.
    var unsigned: String?

    init(board: RoundBoard) {
        let round = board.snapshot.round
        title = "Complete \(round.name)?"
        roundID = Format.id(round.id)
        roundName = round.name
        holeCount = board.standings.holeCount
        unfinished = board.standings.entries.filter { !$0.dnf && $0.thru < board.standings.holeCount }.map {
            Unfinished(name: $0.displayName, thru: $0.thru)
        }
        hasUnfinished = !unfinished.isEmpty
        let gone = board.snapshot.round.withdrawn
        withdrawn = board.standings.entries.filter { gone.contains($0.playerID) }.map { Unfinished(name: $0.displayName, thru: $0.thru) }
        hasWithdrawn = !withdrawn.isEmpty
        let playing = board.snapshot.round.playerIDs.filter { !gone.contains($0) }
        let signed = Set(board.snapshot.signatures.map(\.playerID))
        let missing = playing.filter { !signed.contains($0) }.count
        unsigned = board.snapshot.round.cards.isEmpty || missing == 0 ? nil : "\(missing) of \(playing.count)"
    }
}
