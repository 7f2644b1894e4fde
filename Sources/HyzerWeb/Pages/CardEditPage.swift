import Foundation
import HyzerCore

/// A coach's card editor: each player's card number, each card's starting hole.
struct CardEditPage: Sendable {
    struct PlayerRow: Sendable {
        var playerID: String
        var displayName: String
        var division: String
        var choices: [Option]
    }

    struct CardRow: Sendable {
        var number: Int
        var startingHole: String
    }

    var title = "Cards"
    var round: RoundHeader
    var players: [PlayerRow]
    var cards: [CardRow]
    var form: FormState

    init(board: RoundBoard, form: FormState = FormState(), chosen: [String: String]? = nil, starts: [String: String]? = nil) {
        let snapshot = board.snapshot
        round = board.header
        let count = max(snapshot.round.cards.count + 2, (snapshot.round.playerIDs.count + 3) / 4 + 1)
        var current: [UUID: Int] = [:]
        for (index, card) in snapshot.round.cards.enumerated() { for player in card.playerIDs { current[player] = index + 1 } }
        let names = snapshot.playerNames
        players = snapshot.round.playerIDs.map { id in
            let value = chosen?[Format.id(id)] ?? current[id].map(String.init) ?? ""
            return PlayerRow(
                playerID: Format.id(id), displayName: names[id] ?? "Unknown player", division: snapshot.round.divisions[id] ?? "",
                choices: [Option(value: "", label: "No card", selected: value.isEmpty)]
                    + (1...count).map { Option(value: String($0), label: "Card \($0)", selected: value == String($0)) })
        }
        cards = (1...count).map { number in
            let existing =
                number <= snapshot.round.cards.count ? snapshot.round.cards[number - 1].startingHole : (snapshot.course.holes.first?.number ?? 1)
            return CardRow(number: number, startingHole: starts?["card-\(number)"] ?? String(existing))
        }
        self.form = form
    }
}

extension HoleState {
    /// A hole as one scorekeeper sees it, on the card page and in the card a phone keeps: their
    /// own current entry, what their stepper shows (theirs, else the hole's score), and the other
    /// scorekeepers' entries that differ from it.
    func seen(by viewer: UUID?, names: [UUID: String]) -> (mine: ScoreEvent?, shown: ScoreEvent, others: String) {
        let mine = leaves.first { $0.reportedBy != nil && $0.reportedBy == viewer }
        let shown = mine ?? winner
        let others = leaves.filter { $0.id != mine?.id && $0.result != shown.result }
            .map { "\($0.resultText) by \($0.reportedBy.flatMap { names[$0] } ?? "another device")" }
        return (mine, shown, others.joined(separator: ", "))
    }
}
