import Foundation
import HyzerCore
import HyzerStore

/// A round's edit page: its name, a late arrival, who can withdraw, and removal.
struct RoundEditPage: Sendable {
    struct Entry: Sendable {
        var id: String
        var name: String
        var division: String
        var withdrawn: Bool
        var hasScores: Bool
    }

    var title: String
    var roundID: String
    var name: String
    var form: FormState
    var entries: [Entry]
    var candidates: [Option]
    var hasCandidates: Bool
    var divisions: [Option]
    var hasDivisions: Bool
    var cards: [Option]
    var hasCards: Bool
    var canAdd: Bool
    var isCompleted: Bool

    init(snapshot: RoundSnapshot, players: [Player], form: FormState = FormState()) {
        let round = snapshot.round
        title = "Edit \(round.name)"
        roundID = Format.id(round.id)
        name = form.values["name"] ?? round.name
        self.form = form
        let scored = Set(snapshot.events.map(\.playerID))
        let names = snapshot.playerNames
        entries = round.playerIDs.map { id in
            Entry(
                id: Format.id(id), name: names[id] ?? "Unknown player", division: round.divisions[id] ?? "",
                withdrawn: round.withdrawn.contains(id), hasScores: scored.contains(id))
        }
        let present = Set(round.playerIDs).subtracting(round.withdrawn)
        let chosen = form.values["playerID"] ?? ""
        candidates = players.filter { !present.contains($0.id) }.map {
            Option(value: Format.id($0.id), label: "\($0.displayName) (@\($0.handle.value))", selected: Format.id($0.id) == chosen)
        }
        hasCandidates = !candidates.isEmpty
        let division = form.values["division"] ?? ""
        divisions = (snapshot.event?.divisions ?? []).map { Option(value: $0, label: $0, selected: $0 == division) }
        hasDivisions = !divisions.isEmpty
        let card = form.values["cardID"] ?? ""
        cards = round.cards.map { Option(value: Format.id($0.id), label: "\($0.name) · hole \($0.startingHole)", selected: Format.id($0.id) == card) }
        hasCards = !cards.isEmpty
        isCompleted = round.status == .completed
        canAdd = !isCompleted
    }
}
