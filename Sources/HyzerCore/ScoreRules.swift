import Foundation

/// A score as submitted by a form or the JSON API, after its text was parsed.
public struct ScoreSubmission: Hashable, Sendable {
    public var id: UUID?
    public var playerID: UUID
    public var hole: Int
    public var strokes: Strokes
    public var supersedes: UUID?
    public var reportedBy: UUID?
    public var penalties: Int
    /// Mulligans used on the hole: only a mulligan night takes them, within each player's allowance.
    public var mulligans = 0
    /// An entry of a card's scorekeeper made independently of the other scorekeepers': it
    /// corrects only the reporter's own earlier entry, and where it differs from another
    /// scorekeeper's it is a mismatch to resolve, not a refusal.
    public var crossCheck: Bool
    /// Sent as putts made (`made`): only a putting round takes it.
    public var isPutt = false

    public init(
        id: UUID? = nil, playerID: UUID, hole: Int, strokes: Strokes, supersedes: UUID? = nil, reportedBy: UUID? = nil, penalties: Int = 0,
        crossCheck: Bool = false
    ) {
        self.penalties = penalties
        self.crossCheck = crossCheck
        self.id = id
        self.playerID = playerID
        self.hole = hole
        self.strokes = strokes
        self.supersedes = supersedes
        self.reportedBy = reportedBy
    }
}

/// Why a score was not recorded. `invalid` is bad input (HTTP 422); `conflict` means the
/// input was fine but the round's state does not allow it (HTTP 409).
public enum ScoreRejection: Error, Hashable, Sendable {
    case invalid(FieldErrors)
    /// `current`: the hole's current score, the one a correction must name.
    case conflict(field: String, message: String, current: UUID? = nil)
    /// An athlete tried to record someone else's score.
    case notYours
    /// The player signed their card; only a coach changes it now.
    case signed(String)

    public var message: String {
        switch self {
        case .invalid(let errors): errors.summary
        case .conflict(_, let message, _): message
        case .notYours: "Athletes enter their own scores and those of their card. A coach can enter or correct anyone's."
        case .signed(let name): "\(name) has signed their card: only a coach can change their scores now."
        }
    }
}

/// What the store should do with a submission that passed the rules.
public enum ScoreDecision: Hashable, Sendable {
    /// Record this new event.
    case record(ScoreEvent)
    /// The same id was already recorded with the same content: a retried request.
    case duplicate(ScoreEvent)
}

public enum ScoreRules {
    /// Decides whether a submission may be recorded in `round`, given every event of it
    /// recorded so far. Local entries never create a conflict: scoring an already scored
    /// hole requires naming the score being corrected, and a correction must name a
    /// current score. Conflicts arise only from devices that scored apart, through sync.
    /// `isCoach`: whether a reporter is a coach or admin now (see `decides`).
    public static func decide(
        _ submission: ScoreSubmission,
        round: Round,
        course: Course,
        playerName: (UUID) -> String?,
        existing: [ScoreEvent],
        newID: UUID,
        deviceID: UUID,
        recordedAt: HLC,
        signed: Set<UUID> = [],
        mulliganSales: [MulliganSale] = [],
        byCoach: Bool = true,
        scores known: CurrentScores? = nil,
        isCoach: (UUID) throws -> Bool
    ) rethrows -> Result<ScoreDecision, ScoreRejection> {
        var submission = submission
        if submission.strokes == .dnf {
            submission.penalties = 0
            submission.mulligans = 0
        }
        // With the caller's current scores, an event is found through its hole.
        func recorded(_ id: UUID) -> ScoreEvent? {
            known.map { $0.event(id) } ?? existing.first { $0.id == id }
        }
        if let id = submission.id, let previous = recorded(id) {
            let candidate = ScoreEvent(
                id: id, roundID: round.id, playerID: submission.playerID, hole: submission.hole,
                strokes: submission.strokes, deviceID: deviceID, supersedes: submission.supersedes, recordedAt: recordedAt,
                penalties: submission.penalties, mulligans: submission.mulligans
            )
            guard previous.hasSameContent(as: candidate) else {
                return .failure(.conflict(field: "id", message: "A different score was already recorded with id \(id.lowercasedText)."))
            }
            return .success(.duplicate(previous))
        }

        var errors = FieldErrors()
        if !round.playerIDs.contains(submission.playerID) {
            if let team = round.team(of: submission.playerID) {
                let name = playerName(team.id) ?? "their team"
                errors.add("playerID", "This is a \(round.format.label.lowercased()) round: score \(name) (its teamID), not one of its players.")
            } else {
                errors.add("playerID", "That player is not in this round.")
            }
        }
        if let putting = round.format == .putting ? round.putting : nil {
            Self.checkPutt(submission, putting, into: &errors)
        } else if submission.isPutt {
            errors.add("made", "Putts made belong to a putting round: send \"strokes\" on this \(round.format.label.lowercased()) round.")
        } else if course.hole(submission.hole) == nil {
            errors.add("hole", "Hole \(submission.hole) is not on \(course.name) (holes 1–\(course.holes.count)).")
        }
        if round.format == .putting {
            // Checked above: a putt has no penalties and no stroke range.
        } else if !ScoreEvent.penaltyRange.contains(submission.penalties) {
            errors.add("penalties", "Penalties must be from \(ScoreEvent.penaltyRange.lowerBound) to \(ScoreEvent.penaltyRange.upperBound).")
        } else if let count = submission.strokes.count, count + submission.penalties > Strokes.range.upperBound {
            errors.add("penalties", "Throws and penalties together can be at most \(Strokes.range.upperBound).")
        }
        if !ScoreEvent.mulliganRange.contains(submission.mulligans) {
            errors.add(
                "mulligans", "Mulligans used on a hole must be from \(ScoreEvent.mulliganRange.lowerBound) to \(ScoreEvent.mulliganRange.upperBound)."
            )
        } else if submission.mulligans > 0 && round.mulligans == nil {
            errors.add("mulligans", "This round has no mulligans: a coach sets them when the round is made.")
        }
        if !errors.isEmpty { return .failure(.invalid(errors)) }

        switch round.status {
        case .active: break
        case .scheduled:
            return .failure(.conflict(field: "round", message: "This round has not started yet: start it before entering scores."))
        case .completed:
            return .failure(.conflict(field: "round", message: "This round is completed: scores can no longer be entered."))
        }

        let name = playerName(submission.playerID) ?? "this player"
        if round.archived {
            return .failure(.conflict(field: "round", message: "This round was removed: its results are kept, but it takes no more scores."))
        }
        if !byCoach, let reporter = submission.reportedBy, reporter != submission.playerID, round.withdrawn.contains(reporter) {
            return .failure(
                .conflict(
                    field: "reportedBy",
                    message: "You have withdrawn from this round, so you no longer keep score for your card. A coach can add you again."))
        }
        if round.withdrawn.contains(submission.playerID) {
            return .failure(
                .conflict(
                    field: "playerID",
                    message:
                        "\(name.prefix(1).uppercased() + name.dropFirst()) has withdrawn from this round: add them again (Edit round) to score them.")
            )
        }
        if signed.contains(submission.playerID) && !byCoach {
            return .failure(.signed(name))
        }
        // `known`: the caller's current scores of exactly `existing` (a cache), not built again.
        let scores = known ?? CurrentScores(events: existing)
        let state = scores[submission.playerID, submission.hole]
        var resolves: [UUID] = []
        // A coach's decision stands while it is a leaf of the hole, whoever has agreed with it
        // since (an athlete agreeing first and then changing their entry reopens nothing).
        let submitted = HoleResult(strokes: submission.strokes, penalties: submission.penalties, mulligans: submission.mulligans)
        if submission.crossCheck && submission.supersedes == nil, !byCoach,
            let winner = try state?.leaves.first(where: { try $0.result != submitted && decides($0, isCoach: isCoach) })
        {
            return .failure(
                .conflict(
                    field: "hole", message: "A coach decided hole \(submission.hole) for \(name) (\(winner.resultText)). Ask a coach to change it."))
        }
        if submission.crossCheck && submission.supersedes == nil {
            // The reporter's own current entry, if any, is what this one corrects; the other
            // scorekeepers' entries stay as they are, so a difference shows as a mismatch.
            submission.supersedes = state?.leaves.first { $0.reportedBy != nil && $0.reportedBy == submission.reportedBy }?.id
        } else if let corrected = submission.supersedes {
            guard let target = recorded(corrected) else {
                return .failure(.invalid(FieldErrors("supersedes", "The score being corrected does not exist in this round.")))
            }
            guard target.playerID == submission.playerID, target.hole == submission.hole else {
                return .failure(.invalid(FieldErrors("supersedes", "A correction must be for the same player and hole as the score it corrects.")))
            }
            guard let state, state.leaves.contains(where: { $0.id == corrected }) else {
                let now = state.map { " (now \($0.winner.strokes))" } ?? ""
                return .failure(
                    .conflict(
                        field: "supersedes", message: "That score was already corrected\(now). Reload the round and correct the current score.",
                        current: state?.winner.id))
            }
            if byCoach {
                // A coach's correction decides the hole: it closes every entry the coach saw.
                resolves = state.leaves.map(\.id).filter { $0 != corrected }.sorted { $0.lowercasedText < $1.lowercasedText }
            } else if state.isConflict || (target.reportedBy != nil && target.reportedBy != submission.reportedBy) {
                // Cross-checking means nobody overrules another scorekeeper by themselves:
                // a player corrects their own entry; a disagreement is resolved by a coach.
                guard target.reportedBy == submission.reportedBy else {
                    return .failure(
                        .conflict(
                            field: "supersedes",
                            message: "That score was entered by another scorekeeper. Correct your own entry, or ask a coach to resolve the hole."))
                }
            }
        } else if let state {
            return .failure(
                .conflict(
                    field: "hole",
                    message:
                        "Hole \(submission.hole) already has a score for \(name) (\(state.winner.strokes)). Correct that score (id \(state.winner.id.lowercasedText)) to change it.",
                    current: state.winner.id))
        }

        if let rule = round.mulligans, submission.mulligans > 0 {
            // Counted over the other holes' current scores: a correction gives back what the
            // hole's earlier score used.
            let used = MulliganBook.used(by: submission.playerID, in: scores, except: submission.hole).count
            let bought = MulliganBook.bought(by: submission.playerID, mulliganSales, forSale: rule.forSale)
            let allowance = rule.given + bought
            if used + submission.mulligans > allowance {
                let left = max(0, allowance - used)
                return .failure(
                    .conflict(
                        field: "mulligans",
                        message:
                            "\(name.prefix(1).uppercased() + name.dropFirst()) has \(left) mulligan\(left == 1 ? "" : "s") left (\(used) of \(allowance) used)\(rule.forSale > bought ? ": a coach can sell more" : "")."
                    ))
            }
        }
        return .success(
            .record(
                ScoreEvent(
                    id: submission.id ?? newID, roundID: round.id, playerID: submission.playerID, hole: submission.hole,
                    strokes: submission.strokes, reportedBy: submission.reportedBy, deviceID: deviceID,
                    supersedes: submission.supersedes, resolves: resolves, recordedAt: recordedAt, penalties: submission.penalties,
                    mulligans: submission.mulligans
                )))
    }
}

extension ScoreRules {
    /// Whether `event` is a coach's decision of its hole, which card-mates' entries no longer
    /// contest: a correction by a coach or an admin, or by a local tool (no reporter, no
    /// accounts). A scorekeeper correcting their own entry decides nothing, or a card-mate
    /// could lock a hole against its player, and a cheater every hole against the card.
    /// `isCoach` reads the reporter's role as it is now: a coach since demoted no longer
    /// decides (their holes become mismatches a coach resolves), which fails safe.
    /// A putting round's entry: a lie of its layout, and the putts made there (0 to its putts).
    static func checkPutt(_ submission: ScoreSubmission, _ putting: PuttingSetup, into errors: inout FieldErrors) {
        // Strokes are refused rather than read as putts: a "DNF" or a 2 meant as throws would
        // otherwise be taken for something else.
        guard submission.isPutt else {
            errors.add("made", "A putting round takes the putts made: send \"made\" (0 to \(putting.putts)), not strokes.")
            return
        }
        if putting.lie(submission.hole) == nil {
            let count = putting.stations * putting.distances.count
            errors.add("hole", "Lie \(submission.hole) is not in this putting round (lies 1–\(count): each station's distances in turn).")
        }
        if let made = submission.strokes.count, !(0...putting.putts).contains(made) {
            errors.add("made", "Putts made must be from 0 to \(putting.putts).")
        }
        if submission.penalties != 0 { errors.add("penalties", "A putting round has no penalties.") }
    }

    public static func decides(_ event: ScoreEvent, isCoach: (UUID) throws -> Bool) rethrows -> Bool {
        guard event.supersedes != nil else { return false }
        guard let reporter = event.reportedBy else { return true }
        return try isCoach(reporter)
    }
}

extension ScoreSubmission {
    /// Reads a submission from text fields, as a form or the JSON API delivers them, and
    /// names every field that is wrong. `made`, sent instead of `strokes`, is the putts made
    /// from one lie of a putting round (0 too; `decide` checks it against the round).
    public static func parse(
        id: String?, playerID: String?, hole: String?, strokes: String?, supersedes: String?, penalties: String? = nil, made: String? = nil,
        mulligans: String? = nil
    )
        throws(FieldErrors) -> ScoreSubmission
    {
        var errors = FieldErrors()
        func uuid(_ text: String?, field: String, label: String, required: Bool) -> UUID? {
            let cleaned = TextRules.cleaned(text)
            if cleaned.isEmpty {
                if required { errors.add(field, "\(label) is required.") }
                return nil
            }
            guard let value = UUID(text: cleaned) else {
                errors.add(field, "\(label) must be an id (a UUID).")
                return nil
            }
            return value
        }
        let id = uuid(id, field: "id", label: "The score id", required: false)
        if id == .zero { errors.add("id", "The score id must be one made for this score, not the nil UUID.") }
        let player = uuid(playerID, field: "playerID", label: "Player", required: true)
        let supersedes = uuid(supersedes, field: "supersedes", label: "The corrected score", required: false)
        let holeText = hole ?? ""
        let holeNumber = TextRules.wholeNumber(holeText)
        if TextRules.cleaned(holeText).isEmpty {
            errors.add("hole", "Hole is required.")
        } else if holeNumber == nil {
            errors.add("hole", "Hole must be a hole number.")
        }
        var parsedStrokes = Strokes.dnf
        let madeText = TextRules.cleaned(made)
        if !madeText.isEmpty {
            if !TextRules.cleaned(strokes).isEmpty { errors.add("made", "Send the strokes or, on a putting round, the putts made: not both.") }
            if let count = TextRules.wholeNumber(madeText), Strokes.storedRange.contains(count) {
                parsedStrokes = .count(count)
            } else {
                errors.add("made", "Putts made must be a whole number.")
            }
        } else {
            switch Strokes.parse(strokes) {
            case .success(let value): parsedStrokes = value
            case .failure(let problems): problems.entries.forEach { errors.add($0.field, $0.message) }
            }
        }
        let penaltyText = penalties ?? ""
        let penaltyCount = penaltyText.isEmpty ? 0 : TextRules.wholeNumber(penaltyText)
        if penaltyCount == nil || !ScoreEvent.penaltyRange.contains(penaltyCount ?? 0) {
            errors.add("penalties", "Penalties must be a number from \(ScoreEvent.penaltyRange.lowerBound) to \(ScoreEvent.penaltyRange.upperBound).")
        }
        let mulliganText = TextRules.cleaned(mulligans)
        let mulliganCount = mulliganText.isEmpty ? 0 : TextRules.wholeNumber(mulliganText)
        if mulliganCount == nil || !ScoreEvent.mulliganRange.contains(mulliganCount ?? 0) {
            errors.add(
                "mulligans", "Mulligans must be a number from \(ScoreEvent.mulliganRange.lowerBound) to \(ScoreEvent.mulliganRange.upperBound).")
        }
        try errors.throwIfAny()
        // Both are non-nil here: a missing player or hole added an error above.
        var submission = ScoreSubmission(
            id: id, playerID: player ?? UUID(), hole: holeNumber ?? 0, strokes: parsedStrokes, supersedes: supersedes, penalties: penaltyCount ?? 0)
        submission.isPutt = !madeText.isEmpty
        submission.mulligans = mulliganCount ?? 0
        return submission
    }
}
