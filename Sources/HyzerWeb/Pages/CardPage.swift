import Foundation
import HyzerCore

/// A card scored on a phone, one hole at a time: every player of the card with steppers that
/// start at par (or at this scorekeeper's entry), saved for the whole card with one tap.
struct CardPage: Sendable {
    struct Player: Sendable {
        var playerID: String
        var displayName: String
        var value: String
        /// The others on the card have this hole and they do not (they arrived later): left
        /// blank, and saved only if someone enters it.
        var missed: Bool
        /// The hole's current score for those who only look: "–" before anyone entered it.
        var current: String
        var penalties: String
        /// On a mulligan night: mulligans used on this hole, and "2 of 3 left" over the round.
        var mulligans: String
        var mulligansLeft: String
        var hasMulligans: Bool
        /// Another scorekeeper entered something else for this hole.
        var mismatch: Bool
        var others: String
        var signed: Bool
        /// Signed, and the viewer is not a coach: shown, not editable.
        var locked: Bool
        var canSign: Bool
        /// Withdrew from the round: kept with their scores, no longer scored or signed.
        var withdrawn: Bool
        var total: String
        var toPar: String
    }

    struct HoleLink: Sendable {
        var number: Int
        var current: Bool
        var done: Bool
        /// Card-mates entered different scores for someone here.
        var mismatch: Bool
    }

    var title: String
    var round: RoundHeader
    var cardID: String
    var cardName: String
    var hole: Int
    var par: Int
    var distance: String?
    var step: Int
    var holeCount: Int
    var players: [Player]
    var holes: [HoleLink]
    /// The holes with a mismatch, named on every hole ("1, 4"), or nil.
    var mismatchHoles: String?
    var previousHole: Int?
    var nextHole: Int?
    var isLast: Bool
    var canScore: Bool
    /// Why nobody scores the card now (a round not under way), instead of who may.
    var closedNotice: String?
    var form: FormState
    /// Once every hole of the card is in: the whole card, hole by hole, to check before signing.
    var review: Review?
    /// The card as JSON (`CardStateResponse`), for scoring it on the phone with no signal.
    var state: String?

    struct Review: Sendable {
        struct Row: Sendable {
            var displayName: String
            var cells: [String]
            var total: String
            var toPar: String
        }

        var holes: [HoleHeader]
        var totalPar: Int
        var rows: [Row]
    }

    struct HoleHeader: Sendable {
        var number: Int
        var par: Int
    }

    init?(board: RoundBoard, cardID: UUID, hole requested: Int?, viewer: Identity?, form: FormState = FormState()) {
        let snapshot = board.snapshot
        guard let card = snapshot.round.cards.first(where: { $0.id == cardID }) else { return nil }
        let numbers = snapshot.course.holes.map(\.number)
        let order = card.holeOrder(numbers)
        let scores = board.scores
        let withdrawn = snapshot.round.withdrawn
        let playing = card.playerIDs.filter { !withdrawn.contains($0) }
        // Where the card is: the requested hole, else the first hole after the last one anyone
        // on it has scored that is not yet scored by everyone still playing (a late arrival's
        // missed holes do not pull the card back to its first tee), else any such hole.
        let open = order.filter { number in playing.contains { scores[$0, number] == nil } }
        let reached = order.lastIndex { number in playing.contains { scores[$0, number] != nil } }.map { order[$0] }
        let ahead = reached.flatMap { last in order.firstIndex(of: last) }.map { Array(order[($0 + 1)...]) } ?? order
        let firstOpen = ahead.first(where: open.contains) ?? open.first ?? order.last ?? 1
        let hole = requested.flatMap { order.contains($0) ? $0 : nil } ?? firstOpen
        let holeInfo = snapshot.course.hole(hole)
        self.hole = hole
        par = holeInfo?.par ?? 3
        distance = holeInfo?.distance.map { "\($0) m" }
        step = (order.firstIndex(of: hole) ?? 0) + 1
        holeCount = order.count
        title = "\(card.name) · hole \(hole)"
        round = board.header
        self.cardID = Format.id(card.id)
        cardName = card.name
        let index = order.firstIndex(of: hole) ?? 0
        previousHole = index > 0 ? order[index - 1] : nil
        nextHole = index + 1 < order.count ? order[index + 1] : nil
        isLast = nextHole == nil
        holes = order.map { number in
            HoleLink(
                number: number, current: number == hole, done: playing.allSatisfy { scores[$0, number] != nil },
                mismatch: card.playerIDs.contains { scores[$0, number]?.isConflict ?? false })
        }
        let disputed = holes.filter(\.mismatch).map { String($0.number) }
        mismatchHoles = disputed.isEmpty ? nil : disputed.joined(separator: ", ")
        let names = snapshot.names
        let signed = Set(snapshot.signatures.map(\.playerID))
        let totals = Dictionary(board.standings.entries.map { ($0.playerID, $0) }, uniquingKeysWith: { first, _ in first })
        let coach = viewer?.role.includes(.coach) ?? false
        let underWay = snapshot.round.status == .active && !snapshot.round.archived
        // On a team round the viewer scores and signs as their team.
        let me = viewer.map { snapshot.round.scoredAs($0.playerID) }
        canScore = underWay && (coach || me.map(card.playerIDs.contains) ?? false)
        closedNotice =
            underWay
            ? nil
            : snapshot.round.archived
                ? "This round was removed: its results are kept."
                : snapshot.round.status == .completed
                    ? "This round is completed: its scores are final unless a coach reopens it." : "This round has not started yet."
        let par = self.par
        players = card.playerIDs.map { id in
            let state = scores[id, hole]
            let seen = state?.seen(by: viewer?.playerID, names: names)
            let shown = seen?.shown
            let entry = totals[id]
            let played = (entry?.thru ?? 0) > 0
            let missed = state == nil && playing.contains { $0 != id && scores[$0, hole] != nil }
            return Player(
                playerID: Format.id(id), displayName: names[id] ?? "Unknown player",
                value: form.values["strokes.\(Format.id(id))"] ?? shown?.strokes.description ?? (missed ? "" : String(par)), missed: missed,
                current: state?.winner.resultText ?? "–",
                penalties: form.values["penalties.\(Format.id(id))"] ?? String(shown?.penalties ?? 0),
                mulligans: form.values["mulligans.\(Format.id(id))"] ?? String(shown?.mulligans ?? 0),
                mulligansLeft: entry.flatMap { entry in
                    entry.mulliganAllowance.map { "\($0 - (entry.mulligans ?? 0)) of \($0) left" }
                } ?? "",
                hasMulligans: snapshot.round.mulligans != nil,
                mismatch: state?.isConflict ?? false, others: seen?.others ?? "",
                signed: signed.contains(id), locked: signed.contains(id) && !coach,
                canSign: !signed.contains(id) && !withdrawn.contains(id) && (coach || me == id),
                withdrawn: withdrawn.contains(id),
                total: played ? String(entry?.strokes ?? 0) : "–",
                toPar: entry?.dnf == true ? "DNF" : (played ? ScoreFormat.toPar(entry?.toPar ?? 0) : "–")
            )
        }
        self.form = form
        if holes.allSatisfy(\.done) {
            review = Review(
                holes: snapshot.course.holes.map { HoleHeader(number: $0.number, par: $0.par) }, totalPar: snapshot.course.totalPar,
                rows: card.playerIDs.map { id in
                    let entry = totals[id]
                    return Review.Row(
                        displayName: names[id] ?? "Unknown player",
                        cells: snapshot.course.holes.map { scores[id, $0.number]?.winner.resultText ?? "–" },
                        total: String(entry?.strokes ?? 0),
                        toPar: entry?.dnf == true ? "DNF" : ScoreFormat.toPar(entry?.toPar ?? 0))
                })
        }
    }
}
