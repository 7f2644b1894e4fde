import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// What a phone keeps to score a card with no signal: the card's holes in its order with
/// pars, its players, every current score and this viewer's own entries. The card page
/// carries it, `GET /api/v1/rounds/{id}/cards/{cardID}` answers it, and every batch of
/// entries sent from a phone is answered with it as the batch left the card.
struct CardStateResponse: ResponseEncodable {
    struct Hole: Encodable {
        var number: Int
        var par: Int
        var distance: Int?
    }

    struct Player: Encodable {
        var id: String
        var displayName: String
        var signed: Bool
        var withdrawn: Bool
        /// On a mulligan night: the mulligans given and bought (the phone counts those used).
        var mulligans: Int?
    }

    struct Entry: Encodable {
        var strokes: StrokesValue
        var penalties: Int
        /// On a mulligan night only.
        var mulligans: Int?
    }

    struct Score: Encodable {
        var playerID: String
        var hole: Int
        /// The hole's current score (with a mismatch, one of the entries that disagree).
        var strokes: StrokesValue
        var penalties: Int
        /// On a mulligan night only: mulligans used on the hole.
        var mulligans: Int?
        /// This viewer's own current entry, when they made one: what their stepper starts at.
        var mine: Entry?
        var mismatch: Bool
        /// The other scorekeepers' differing entries, for the mismatch line.
        var others: String
    }

    struct Viewer: Encodable {
        var playerID: String
        var displayName: String
        var coach: Bool
    }

    var roundID: String
    var roundName: String
    var roundStatus: String
    var cardID: String
    var cardName: String
    var version: Int
    /// When the server answered: the phone shows how old its copy is.
    var at: Date
    var viewer: Viewer?
    var canScore: Bool
    var holes: [Hole]
    var players: [Player]
    var scores: [Score]

    init?(board: RoundBoard, cardID: UUID, viewer: Identity?, at: Date) {
        let snapshot = board.snapshot
        guard let card = snapshot.round.cards.first(where: { $0.id == cardID }) else { return nil }
        let names = snapshot.names
        roundID = Format.id(snapshot.round.id)
        roundName = board.header.name
        roundStatus = snapshot.round.archived ? "removed" : snapshot.round.status.rawValue
        self.cardID = Format.id(card.id)
        cardName = card.name
        version = snapshot.version
        self.at = at
        let coach = viewer?.role.includes(.coach) ?? false
        self.viewer = viewer.map { Viewer(playerID: Format.id($0.playerID), displayName: $0.displayName, coach: coach) }
        canScore = coach || viewer.map { card.playerIDs.contains(snapshot.round.scoredAs($0.playerID)) } ?? false
        let byNumber = Dictionary(snapshot.course.holes.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        holes = card.holeOrder(snapshot.course.holes.map(\.number)).compactMap { number in
            byNumber[number].map { Hole(number: $0.number, par: $0.par, distance: $0.distance) }
        }
        let signed = Set(snapshot.signatures.map(\.playerID))
        func allowance(of player: UUID) -> Int? {
            snapshot.round.mulligans.map { $0.given + MulliganBook.bought(by: player, snapshot.mulliganSales, forSale: $0.forSale) }
        }
        players = card.playerIDs.map {
            Player(
                id: Format.id($0), displayName: names[$0] ?? "Unknown player", signed: signed.contains($0),
                withdrawn: snapshot.round.withdrawn.contains($0),
                mulligans: allowance(of: $0))
        }
        var scores: [Score] = []
        let night = snapshot.round.mulligans != nil
        for player in card.playerIDs {
            for hole in holes {
                guard let state = board.scores[player, hole.number] else { continue }
                let (mine, _, others) = state.seen(by: viewer?.playerID, names: names)
                scores.append(
                    Score(
                        playerID: Format.id(player), hole: hole.number, strokes: StrokesValue(state.winner.strokes),
                        penalties: state.winner.penalties, mulligans: night ? state.winner.mulligans : nil,
                        mine: mine.map { Entry(strokes: StrokesValue($0.strokes), penalties: $0.penalties, mulligans: night ? $0.mulligans : nil) },
                        mismatch: state.isConflict, others: others))
            }
        }
        self.scores = scores
    }

    /// The JSON a page carries in an attribute (HTML-escaped by the template).
    func json() throws -> String {
        String(decoding: try JSONCoding.encoder.encode(self), as: UTF8.self)
    }
}

/// `POST /api/v1/rounds/{id}/cards/{cardID}/scores`: a phone's outbox for one card, in the
/// order the entries were typed. `author` is the player who typed them (the phone's signed-in
/// person then); the batch is refused unless that is who sends it now.
struct CardScoresBody: Decodable {
    struct Entry: Decodable {
        var id: String
        var playerID: String
        var hole: Int
        var strokes: StrokesValue
        var penalties: Int?
        var mulligans: Int?
    }

    var author: String?
    var scores: [Entry]

    static let maxEntries = 500

    func entries() throws -> (author: UUID?, entries: [DomainStore.CardScoreEntry]) {
        var errors = FieldErrors()
        if scores.isEmpty { errors.add("scores", "Send at least one entry.") }
        if scores.count > Self.maxEntries { errors.add("scores", "Send at most \(Self.maxEntries) entries at once.") }
        let author = self.author.flatMap { UUID(text: $0) }
        if self.author != nil, author == nil { errors.add("author", "The author must be a player id (a UUID).") }
        var entries: [DomainStore.CardScoreEntry] = []
        for (index, entry) in scores.enumerated() {
            guard let id = UUID(text: entry.id), id != .zero else {
                errors.add("scores[\(index)].id", "Each entry needs its own id (a UUID).")
                continue
            }
            guard let player = UUID(text: entry.playerID) else {
                errors.add("scores[\(index)].playerID", "That is not a player id.")
                continue
            }
            let penalties = entry.penalties ?? 0
            guard ScoreEvent.penaltyRange.contains(penalties) else {
                errors.add(
                    "scores[\(index)].penalties",
                    "Penalties must be from \(ScoreEvent.penaltyRange.lowerBound) to \(ScoreEvent.penaltyRange.upperBound).")
                continue
            }
            let mulligans = entry.mulligans ?? 0
            guard ScoreEvent.mulliganRange.contains(mulligans) else {
                errors.add(
                    "scores[\(index)].mulligans",
                    "Mulligans must be from \(ScoreEvent.mulliganRange.lowerBound) to \(ScoreEvent.mulliganRange.upperBound).")
                continue
            }
            entries.append(
                DomainStore.CardScoreEntry(
                    id: id, playerID: player, hole: entry.hole, strokes: entry.strokes.strokes, penalties: penalties, mulligans: mulligans))
        }
        try errors.throwIfAny()
        return (author, entries)
    }
}

/// Each entry's outcome, in the order sent, and the card as the batch left it.
struct CardScoresResponse: ResponseEncodable {
    struct Result: Encodable {
        var id: String
        /// recorded · duplicate (sent before) · unchanged · superseded (by a later entry of
        /// the batch) · refused (with the reason): every outcome but refused means "delivered".
        var outcome: String
        var reason: String?
    }

    var results: [Result]
    var card: CardStateResponse
}

extension DomainStore.CardEntryOutcome {
    var name: String {
        switch self {
        case .recorded: "recorded"
        case .duplicate: "duplicate"
        case .unchanged: "unchanged"
        case .superseded: "superseded"
        case .refused: "refused"
        }
    }

    var reason: String? {
        if case .refused(let rejection) = self { return rejection.message }
        return nil
    }
}
