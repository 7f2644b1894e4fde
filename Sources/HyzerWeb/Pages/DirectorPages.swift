import Foundation
import HyzerCore
import HyzerStore

// The director's pages: lists with search, a round's edit page, the completion check and
// the CSV imports.

/// A list of courses, players or events, searchable by name.
struct DirectoryPage: Sendable {
    struct Item: Sendable {
        var name: String
        var detail: String
        var link: String?
        var editLink: String?
    }

    var title: String
    var query: String
    var items: [Item]
    var hasItems: Bool
    var total: Int
    var newLink: String?
    var newLabel: String
    var searchHint: String
    var importLink: String?
    var emptyText: String

    init(
        title: String, query: String, items: [Item], total: Int, newLink: String?, newLabel: String, searchHint: String = "Name or handle",
        importLink: String? = nil
    ) {
        self.searchHint = searchHint
        self.title = title
        self.query = query
        self.items = items
        hasItems = !items.isEmpty
        self.total = total
        self.newLink = newLink
        self.newLabel = newLabel
        self.importLink = importLink
        emptyText = query.isEmpty ? "Nothing here yet." : "Nothing matches “\(query)”."
    }

    /// Items whose name or detail holds every word of the query, ignoring case and accents.
    static func matching(_ query: String, _ items: [Item]) -> [Item] {
        let words = query.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return items }
        return items.filter { item in
            let text = "\(item.name) \(item.detail)"
            return words.allSatisfy { text.range(of: $0, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
        }
    }
}

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

/// A CSV upload: a player list, or a round's results.
struct ImportPage: Sendable {
    var title: String
    var action: String
    var intro: String
    var example: String
    var back: String
    var form: FormState
}
