import Foundation
import HyzerCore
import HyzerStore

/// Correcting one recorded score (or resolving a conflict on that hole).
struct CorrectionPage: Sendable {
    var title = "Correct a score"
    var round: RoundHeader
    var eventID: String
    var playerID: String
    var playerName: String
    var hole: Int
    var par: Int
    /// "hole 3 (par 3)", or on a putting round the lie: "Station 2 · 25 ft".
    var place: String
    /// A putting round's correction is of putts made.
    var putting: RoundPage.PuttingEntry?
    /// A mulligan night: the correction says the mulligans used too (else it would give them back).
    var hasMulligans: Bool
    var current: String
    var conflict: Bool
    var others: [String]
    /// Every value entered for this hole now standing, with who entered it: a coach picks one
    /// with one tap.
    var entries: [Entry]
    var form: FormState

    struct Entry: Sendable {
        var value: String
        var strokes: String
        var penalties: Int
        var mulligans: Int
        var enteredBy: String
        var isCurrent: Bool
    }

    init?(board: RoundBoard, eventID: UUID, form: FormState? = nil) {
        let snapshot = board.snapshot
        guard let event = snapshot.events.first(where: { $0.id == eventID }) else { return nil }
        round = board.header
        self.eventID = Format.id(eventID)
        playerID = Format.id(event.playerID)
        playerName = snapshot.playerNames[event.playerID] ?? "Unknown player"
        hole = event.hole
        par = snapshot.course.hole(event.hole)?.par ?? 0
        let layout = snapshot.round.format == .putting ? snapshot.round.putting : nil
        putting = layout.map { RoundPage.PuttingEntry(puttsPerLie: $0.putts) }
        place = layout?.lie(event.hole)?.label ?? "hole \(event.hole) (par \(par))"
        hasMulligans = snapshot.round.mulligans != nil
        let state = board.scores[event.playerID, event.hole]
        current = event.strokes.description
        conflict = state?.isConflict ?? false
        others = state?.leaves.filter { $0.id != eventID }.map(\.strokes.description) ?? []
        let names = snapshot.names
        entries = (state?.leaves ?? [event]).enumerated().map { index, leaf in
            Entry(
                value: leaf.resultText, strokes: leaf.strokes.description, penalties: leaf.penalties, mulligans: leaf.mulligans,
                enteredBy: leaf.reportedBy.flatMap { names[$0] } ?? "a device without a signed-in scorer",
                isCurrent: index == 0)
        }
        self.form =
            form
            ?? FormState(values: [
                "strokes": event.strokes.description, "made": event.strokes.description, "penalties": String(event.penalties),
                "mulligans": String(event.mulligans),
            ])
    }
}
