import Foundation
import GRDB
import HyzerCore

/// A phone's outbox, sent to the card it was typed on: each entry carries the id the phone
/// gave it, so a batch sent again (its answer lost, the server restarted, another instance
/// of the club answering) records each entry once.
extension DomainStore {
    public struct CardScoreEntry: Sendable, Hashable {
        public var id: UUID
        public var playerID: UUID
        public var hole: Int
        public var strokes: Strokes
        public var penalties: Int
        public var mulligans: Int

        public init(id: UUID, playerID: UUID, hole: Int, strokes: Strokes, penalties: Int = 0, mulligans: Int = 0) {
            self.id = id
            self.playerID = playerID
            self.hole = hole
            self.strokes = strokes
            self.penalties = penalties
            self.mulligans = mulligans
        }
    }

    public enum CardEntryOutcome: Sendable, Hashable {
        /// Stored as a new score event.
        case recorded
        /// An entry with this id was stored before: a batch sent again.
        case duplicate
        /// Equal to what this scorekeeper's entry for the hole already says: nothing to store.
        case unchanged
        /// A later entry of the same batch for the same player and hole replaces it.
        case superseded
        /// The round's rules refuse it (a signed card, a hole a coach decided, a withdrawn
        /// player, …); the reason is for the scorer, beside the hole.
        case refused(ScoreRejection)
    }

    /// Why a whole batch is refused before any entry is looked at.
    public enum CardBatchRejection: Error, Hashable, Sendable {
        /// The entries were typed by someone other than who sends them now (another person
        /// signed in on that phone): they are never recorded as the sender's.
        case notTheAuthor(author: String)
    }

    /// Records a batch of a card's entries in order, in one transaction. Entries are a
    /// scorekeeper's own, as on the card page: each corrects only that scorekeeper's earlier
    /// entry, so two scorekeepers who disagree make a mismatch. Unlike a hole saved from the
    /// page, one refused entry does not refuse the others: each has its own outcome.
    public func recordCardEntries(_ entries: [CardScoreEntry], card cardID: UUID, in roundID: UUID, author: UUID?, by reporter: Identity?)
        async throws -> (snapshot: RoundSnapshot, outcomes: [CardEntryOutcome])
    {
        let stamp = tick()
        let deviceID = deviceID
        let written = try await write(queueing: { $0.2.map { (.scoreEvent, $0.id.text, $0.recordedAt) } }) {
            db -> (RoundSnapshot, [CardEntryOutcome], [ScoreEvent]) in
            // As the card page shows it: on a team round its entries are the teams'.
            var snapshot = try Self.snapshot(roundID, db).scoringView
            guard let card = snapshot.round.cards.first(where: { $0.id == cardID }) else { throw StoreError.notFound("Card") }
            if let reporter, let author, author != reporter.playerID {
                let name = try PlayerRecord.fetchOne(db, key: author.text)?.displayName ?? "someone else"
                throw CardBatchRejection.notTheAuthor(author: name)
            }
            let coach = reporter.map { $0.role.includes(.coach) } ?? true
            if let reporter, !coach, !card.playerIDs.contains(snapshot.round.scoredAs(reporter.playerID)) {
                throw ScoreRejection.notYours
            }
            let signed = Set(snapshot.signatures.map(\.playerID))
            var scores = CurrentScores(events: snapshot.events)
            var known = Dictionary(snapshot.events.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            // The last entry of the batch for each player and hole: earlier ones it replaces are
            // not stored (a batch sent again after a later entry was stored must not revert it).
            var last: [String: Int] = [:]
            for (index, entry) in entries.enumerated() { last["\(entry.playerID.text)/\(entry.hole)"] = index }
            var clock = stamp
            var outcomes: [CardEntryOutcome] = []
            var recorded: [ScoreEvent] = []
            for (index, entry) in entries.enumerated() {
                if let previous = known[entry.id] {
                    let same =
                        previous.playerID == entry.playerID && previous.hole == entry.hole
                        && previous.result
                            == HoleResult(
                                strokes: entry.strokes, penalties: entry.strokes == .dnf ? 0 : entry.penalties,
                                mulligans: entry.strokes == .dnf ? 0 : entry.mulligans)
                    outcomes.append(
                        same
                            ? .duplicate
                            : .refused(.conflict(field: "id", message: "A different score was already recorded with id \(entry.id.lowercasedText).")))
                    continue
                }
                if try Int.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM score_events WHERE id = ?"), arguments: [entry.id.text]) != nil {
                    outcomes.append(
                        .refused(.conflict(field: "id", message: "A different score was already recorded with id \(entry.id.lowercasedText).")))
                    continue
                }
                if last["\(entry.playerID.text)/\(entry.hole)"] != index {
                    outcomes.append(.superseded)
                    continue
                }
                guard card.playerIDs.contains(entry.playerID) else {
                    outcomes.append(
                        .refused(
                            .invalid(
                                FieldErrors("playerID", "\(snapshot.playerNames[entry.playerID] ?? "That player") is not on \(card.name) any more.")))
                    )
                    continue
                }
                var submission = ScoreSubmission(
                    id: entry.id, playerID: entry.playerID, hole: entry.hole, strokes: entry.strokes, reportedBy: reporter?.playerID,
                    penalties: entry.strokes == .dnf ? 0 : entry.penalties, crossCheck: !coach)
                submission.mulligans = entry.strokes == .dnf ? 0 : entry.mulligans
                guard let prepared = Self.cardEntry(submission, scores: scores, signed: signed, coach: coach) else {
                    outcomes.append(.unchanged)
                    continue
                }
                let decision = try ScoreRules.decide(
                    prepared, round: snapshot.round, course: snapshot.course, playerName: snapshot.playerName,
                    existing: snapshot.events, newID: entry.id, deviceID: deviceID, recordedAt: clock,
                    signed: signed, mulliganSales: snapshot.mulliganSales, byCoach: coach, scores: scores, isCoach: { try Self.isCoach($0, db) })
                switch decision {
                case .failure(let rejection):
                    outcomes.append(.refused(rejection))
                case .success(.duplicate):
                    outcomes.append(.duplicate)
                case .success(.record(let event)):
                    try ScoreEventRecord.insert(event, ifAbsent: false, db)
                    snapshot.events.append(event)
                    scores.add([event])
                    known[event.id] = event
                    recorded.append(event)
                    outcomes.append(.recorded)
                    clock = HLC(wallMillis: clock.wallMillis, counter: clock.counter + 1, deviceID: clock.deviceID)
                }
            }
            if !recorded.isEmpty {
                try db.execute(sql: "UPDATE rounds SET version = version + 1 WHERE id = ?", arguments: [snapshot.round.id.text])
                snapshot.version += 1
            }
            return (snapshot, outcomes, recorded)
        }
        if let newest = written.2.last { advanceClock(past: newest.recordedAt) }
        return (written.0, written.1)
    }

    /// What a scorekeeper's card entry records, by the card's rules, or nil when it would
    /// change nothing: a coach's entry decides the hole (it corrects the current score unless
    /// that already says the same); a signed player's unchanged score is left alone; an entry
    /// equal to this scorekeeper's own is not stored again.
    static func cardEntry(_ submission: ScoreSubmission, scores: CurrentScores, signed: Set<UUID>, coach: Bool) -> ScoreSubmission? {
        let state = scores[submission.playerID, submission.hole]
        let result = HoleResult(strokes: submission.strokes, penalties: submission.penalties, mulligans: submission.mulligans)
        if coach {
            if let state, state.winner.result == result, !state.isConflict { return nil }
            var correction = submission
            correction.supersedes = state?.winner.id
            return correction
        }
        if signed.contains(submission.playerID), state?.winner.result == result { return nil }
        let mine = state?.leaves.first { $0.reportedBy != nil && $0.reportedBy == submission.reportedBy }
        return mine?.result == result ? nil : submission
    }
}
