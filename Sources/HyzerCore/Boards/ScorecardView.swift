import Foundation

/// The round page's grid: players down, holes across, the current score in each cell,
/// conflicts flagged, and what the correction forms need.
public struct ScorecardView: Hashable, Sendable {
    public struct HoleHeader: Hashable, Sendable {
        public var number: Int
        public var par: Int
        public var distance: String
    }

    public struct Cell: Hashable, Sendable {
        public var hole: Int
        public var text: String
        public var cssClass: String
        /// The current (winning) event, for the correction link; empty when unscored.
        public var eventID: String
        public var conflict: Bool
        public var scored: Bool
        public var penalty: Bool
        /// A mulligan was used on the hole (a mulligan night).
        public var mulligan = false
        /// Changed after the player signed: only a coach can, and it stays marked.
        public var afterSigning: Bool
        public var title: String?
    }

    public struct Row: Hashable, Sendable {
        public var playerID: String
        public var displayName: String
        public var handle: String
        public var cells: [Cell]
        public var total: String
        public var toPar: String
        public var toParClass: String
    }

    public struct ConflictOption: Hashable, Sendable {
        public var eventID: String
        public var strokes: String
        public var winner: Bool
        public var recordedAt: String
        public var enteredBy: String
    }

    public struct Conflict: Hashable, Sendable {
        public var playerID: String
        public var displayName: String
        public var hole: Int
        public var options: [ConflictOption]
        /// The event a resolving correction names; the others are resolved with it.
        public var winnerID: String
    }

    public var roundID: String
    public var version: Int
    public var holes: [HoleHeader]
    public var rows: [Row]
    public var conflicts: [Conflict]
    public var totalPar: Int
    public var hasConflicts: Bool
    /// Some score was changed after its player signed: the grid's legend explains the mark.
    public var hasChangedAfterSigning: Bool
    /// Some score includes penalty throws: the legend explains the P.
    public var hasPenalties: Bool
    public var hasMulligans = false
    /// The last column's heading, and whether a par row is shown: a putting round's scores
    /// are putts made, totalled in points, with no par.
    public var scoreHeading = "To par"
    public var hasPar = true

    public init(
        course: Course, round: Round, players: [Player], scores: CurrentScores, standings: Standings, version: Int, signatures: [Signature] = [],
        reporterNames: [UUID: String] = [:]
    ) {
        let signedAt = signatures.firstByPlayer
        roundID = round.id.lowercasedText
        self.version = version
        let names = Dictionary(players.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let totals = Dictionary(standings.entries.map { ($0.playerID, $0) }, uniquingKeysWith: { first, _ in first })
        let putting = round.format == .putting ? round.putting : nil
        holes = course.holes.map { hole in
            HoleHeader(
                number: hole.number, par: hole.par, distance: putting?.lie(hole.number)?.label ?? hole.distance.map { "\($0) m" } ?? "")
        }
        if putting != nil {
            scoreHeading = "Points"
            hasPar = false
        }
        totalPar = course.totalPar
        rows = round.playerIDs.map { playerID in
            let cells = course.holes.map { hole -> Cell in
                guard let state = scores[playerID, hole.number] else {
                    return Cell(
                        hole: hole.number, text: "", cssClass: "empty", eventID: "", conflict: false, scored: false, penalty: false,
                        afterSigning: false, title: nil)
                }
                let winner = state.winner
                var title = winner.penalties > 0 ? winner.resultText : nil
                if winner.mulligans > 0 {
                    let used = "\(winner.mulligans) mulligan\(winner.mulligans == 1 ? "" : "s") used"
                    title = title.map { "\($0), \(used)" } ?? used
                }
                var cell = Cell(
                    hole: hole.number,
                    text: state.winner.score.map(String.init) ?? state.winner.strokes.description,
                    cssClass: putting == nil ? ScoreFormat.holeClass(state.winner.score.map(Strokes.count) ?? .dnf, par: hole.par) : "putts",
                    eventID: state.winner.id.lowercasedText,
                    conflict: state.isConflict,
                    scored: true,
                    penalty: state.winner.penalties > 0,
                    afterSigning: signedAt[playerID].map { state.winner.recordedAt > $0.signedAt } ?? false,
                    title: title
                )
                cell.mulligan = winner.mulligans > 0
                return cell
            }
            let entry = totals[playerID]
            let played = (entry?.thru ?? 0) > 0
            return Row(
                playerID: playerID.lowercasedText,
                displayName: names[playerID]?.displayName ?? "Unknown player",
                handle: names[playerID]?.handle.value ?? "",
                cells: cells,
                total: played ? String(entry?.strokes ?? 0) : "–",
                toPar: entry?.dnf == true ? "DNF" : (played ? entry?.points.map(String.init) ?? ScoreFormat.toPar(entry?.toPar ?? 0) : "–"),
                toParClass: played && entry?.dnf != true && putting == nil ? ScoreFormat.toParClass(entry?.toPar ?? 0) : "none"
            )
        }
        conflicts = scores.conflicts
            .filter { round.playerIDs.contains($0.0.playerID) }
            .map { key, state in
                Conflict(
                    playerID: key.playerID.lowercasedText,
                    displayName: names[key.playerID]?.displayName ?? "Unknown player",
                    hole: key.hole,
                    options: state.leaves.enumerated().map { index, event in
                        ConflictOption(
                            eventID: event.id.lowercasedText, strokes: event.resultText, winner: index == 0,
                            recordedAt: event.recordedAt.date.formatted(.iso8601),
                            enteredBy: event.reportedBy.flatMap { names[$0]?.displayName ?? reporterNames[$0] } ?? "")
                    },
                    winnerID: state.winner.id.lowercasedText
                )
            }
        hasConflicts = !conflicts.isEmpty
        let cells = rows.flatMap(\.cells)
        hasChangedAfterSigning = cells.contains(where: \.afterSigning)
        hasPenalties = cells.contains(where: \.penalty)
        hasMulligans = cells.contains(where: \.mulligan)
    }
}
