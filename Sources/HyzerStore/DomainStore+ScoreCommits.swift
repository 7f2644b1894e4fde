import Foundation
import GRDB
import HyzerCore

/// A score submission waiting for its group commit.
struct PendingScore: Sendable {
    var submission: ScoreSubmission
    var roundID: UUID
    var reporter: Identity?
}

extension DomainStore {
    /// Records a batch of submissions in the write transaction `db`, in order, each decided by the
    /// usual rules against the round as the earlier ones left it. A refused submission
    /// writes nothing and is answered with its refusal; the rest still commit. Their outbox
    /// entries and each round's version change are written in the same transaction. A
    /// database error fails the whole batch: nothing of it is acknowledged.
    func commitScores(_ batch: [PendingScore], _ db: Database) throws -> [Result<RecordedScore, any Error>] {
        var rounds: [UUID: RoundState] = [:]
        var added: [UUID: Int] = [:]
        var outcomes: [Result<(ScoreEvent, duplicate: Bool), any Error>] = []
        for pending in batch {
            var round: RoundState
            do {
                // Taken out while it grows, so appending copies nothing. The first read of a
                // round comes before this transaction writes to it: the board cache (only
                // events stored since its last read are read) never sees uncommitted rows.
                round = try rounds.removeValue(forKey: pending.roundID) ?? self.takeRoundState(pending.roundID, db)
            } catch let error as StoreError {
                outcomes.append(.failure(error))
                continue
            }
            do {
                let (event, duplicate) = try self.recordOne(pending, into: &round, db)
                if !duplicate { added[pending.roundID, default: 0] += 1 }
                outcomes.append(.success((event, duplicate)))
            } catch let rejection as ScoreRejection {
                outcomes.append(.failure(rejection))
            }
            rounds[pending.roundID] = round
        }
        for (roundID, count) in added {
            try db.cachedStatement(sql: "UPDATE rounds SET version = version + ? WHERE id = ?").execute(arguments: [count, roundID.text])
        }
        // Refused scores are answered to their callers below; only the stored ones are queued.
        let queued = outcomes.compactMap { outcome -> (RecordType, String, HLC)? in
            guard case .success((let event, let duplicate)) = outcome, !duplicate else { return nil }
            return (.scoreEvent, event.id.text, event.recordedAt)
        }
        try Outbox.enqueue(queued, db)
        self.crashPoints?.pass(.scoreWritten)
        // Every score of the batch is answered with its round as the batch left it.
        let answers: [Result<RecordedScore, any Error>] = zip(batch, outcomes).map { pending, outcome in
            outcome.flatMap { event, duplicate in
                guard let round = rounds[pending.roundID] else { return .failure(StoreError.notFound("Round")) }
                return .success(RecordedScore(event: event, duplicate: duplicate, version: round.setup.version))
            }
        }
        // Back into the board cache, grown by what the batch inserted. Until the commit a
        // reader cannot see those rows: it finds the entry's last row missing and builds
        // the round from what it sees (as after a rolled-back batch), never uncommitted
        // scores.
        for (roundID, round) in rounds { self.boards.store(round.entry, for: roundID) }
        return answers
    }

    /// A round as a batch sees it: the round without its events (its current scores hold
    /// what the rules need), grown by every score the batch records, and the rest of its board
    /// cache entry, which grows with them. Copying the events of a long round for each batch
    /// would cost more than the batch.
    struct RoundState {
        var setup: RoundSnapshot
        var scores: CurrentScores
        let signed: Set<UUID>
        /// The cache entry without its setup and scores (they are above while the batch runs).
        var rest: BoardCache.Entry

        init(setup: RoundSnapshot, scores: CurrentScores, rest: BoardCache.Entry) {
            self.setup = setup
            self.scores = scores
            self.rest = rest
            signed = Set(setup.signatures.map(\.playerID))
        }

        /// The whole cache entry again.
        var entry: BoardCache.Entry {
            var entry = rest
            entry.setup = setup
            entry.scores = scores
            return entry
        }

        /// After `event` was inserted as row `rowID`.
        mutating func add(_ event: ScoreEvent, rowID: Int64, _ db: Database) throws {
            setup.version += 1
            scores.add(CollectionOfOne(event))
            rest.events.append(event)
            rest.lastRowID = rowID
            rest.lastEventID = event.id.text
            try DomainStore.addReporterNames(&setup, from: CollectionOfOne(event), db)
        }
    }

    /// Decides one submission against `round` and inserts its event; `round` grows by it.
    private func recordOne(_ pending: PendingScore, into round: inout RoundState, _ db: Database) throws -> (ScoreEvent, duplicate: Bool) {
        var submission = pending.submission
        submission.playerID = try Self.canonicalID(submission.playerID, db)
        if let reporter = pending.reporter {
            guard ScorePermission.allows(reporter, toScore: submission.playerID, cards: round.setup.round.cards, teams: round.setup.round.teams)
            else {
                throw ScoreRejection.notYours
            }
            submission.reportedBy = reporter.playerID
        }
        let decision = try ScoreRules.decide(
            submission, round: round.setup.round, course: round.setup.course, playerName: round.setup.playerName,
            // No events: with the current scores the rules find every event through its hole.
            existing: [], newID: .random(), deviceID: deviceID, recordedAt: tick(),
            signed: round.signed, mulliganSales: round.setup.mulliganSales, byCoach: pending.reporter.map { $0.role.includes(.coach) } ?? true,
            scores: round.scores,
            isCoach: { try Self.isCoach($0, db) }
        )
        switch decision {
        case .failure(let rejection):
            throw rejection
        case .success(.duplicate(let event)):
            return (event, true)
        case .success(.record(let event)):
            // An id used in another round is not a retry of this request.
            if try Int.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM score_events WHERE id = ?"), arguments: [event.id.text]) != nil {
                throw ScoreRejection.conflict(field: "id", message: "A different score was already recorded with id \(event.id.text).")
            }
            try ScoreEventRecord.insert(event, ifAbsent: false, db)
            try round.add(event, rowID: db.lastInsertedRowID, db)
            return (event, false)
        }
    }
}
