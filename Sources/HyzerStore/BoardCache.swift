import Foundation
import GRDB
import HyzerCore
import Synchronization

/// Each recently read round's board, its score events and current scores. A round whose
/// version has not moved is served as it is (every change to what a board shows bumps the
/// version: scores, signatures, the round, its course, its event, its players' names); after a
/// change only the events stored since are read and folded in (score events are
/// append-only: a round's events only ever grow, in rowid order), and the rest of the round
/// is read anew.
final class BoardCache: Sendable {
    struct Entry: Sendable {
        var lastRowID: Int64
        var lastEventID: String
        var events: [ScoreEvent]
        var scores: CurrentScores
        /// The alias map the events were read under: a merge of identities starts over.
        var aliases: [String: String]
        /// The board last served; nil while the entry grows (so its arrays grow in place).
        var board: RoundBoard?
        /// Everything of the round but its events, and the stamp it was read under.
        var setup: RoundSnapshot?
        var setupStamp: String
        /// `DomainStore.setupChanges` when the stamp was last checked; nil when it was read
        /// inside a write that had changed the setup (checked again on the next read).
        var setupCount: UInt64?
        var used: UInt64
    }

    static let capacity = 64
    private let state = Mutex<(entries: [UUID: Entry], clock: UInt64)>(([:], 0))

    /// The board kept for this version and alias map, left where it is: every reader of an
    /// unchanged round shares it. (Taken out instead, each concurrent reader found nothing and
    /// built the board again from the whole round: pages served under load fell to a sixth.)
    func board(_ roundID: UUID, version: Int, aliases: [String: String]) -> RoundBoard? {
        state.withLock { state in
            guard let entry = state.entries[roundID], let board = entry.board, board.version == version, entry.aliases == aliases else {
                return nil
            }
            state.clock += 1
            state.entries[roundID]?.used = state.clock
            return board
        }
    }

    /// Takes the entry out, so that adding to it copies nothing (its arrays and dictionaries
    /// are then referenced once); `store` puts it back.
    func take(_ roundID: UUID) -> Entry? {
        state.withLock { $0.entries.removeValue(forKey: roundID) }
    }

    func store(_ entry: Entry, for roundID: UUID) {
        state.withLock { state in
            state.clock += 1
            var entry = entry
            entry.used = state.clock
            state.entries[roundID] = entry
            if state.entries.count > Self.capacity, let oldest = state.entries.min(by: { $0.value.used < $1.value.used })?.key {
                state.entries[oldest] = nil
            }
        }
    }

    func holds(_ roundID: UUID) -> Bool {
        state.withLock { $0.entries[roundID] != nil }
    }

    /// After the whole file's contents were replaced (a restore).
    func removeAll() {
        state.withLock { $0.entries = [:] }
    }
}

extension DomainStore {
    /// A round's board (scores → standings → view models), reading only what changed since
    /// the last read of this round.
    public func board(of roundID: UUID) async throws -> RoundBoard {
        try await pool.read { db in try self.board(roundID, db) }
    }

    // Read for every live frame and inside every group commit: its statements are prepared
    // once per connection (`cachedStatement`), not compiled on each read.
    func board(_ roundID: UUID, _ db: Database) throws -> RoundBoard {
        // Read before the transaction's first statement: what is read under them is never older.
        let (setupCount, playerCount) = (setupCount(db), playerChanges.value)
        let (version, aliases) = try versionAndAliases(roundID, playerCount: playerCount, db)
        if let board = boards.board(roundID, version: version, aliases: aliases) { return board }
        let cached = boards.take(roundID)
        var entry = try Self.current(roundID, cached, aliases: aliases, setupCount: setupCount, db)
        guard var snapshot = entry.setup else { throw StoreError.notFound("Round") }
        snapshot.events = entry.events
        snapshot.version = version
        let board = RoundBoard(snapshot, scores: entry.scores)
        entry.board = board
        boards.store(entry, for: roundID)
        return board
    }

    /// A round's board for a pass over many rounds (ratings, a layout's statistics): the
    /// cache's when it holds the round, else built and not kept, so that a pass over the
    /// club's history does not push the live rounds' boards out.
    func passingBoard(_ roundID: UUID, _ db: Database) throws -> RoundBoard {
        if boards.holds(roundID) { return try board(roundID, db) }
        let (setupCount, playerCount) = (setupCount(db), playerChanges.value)
        let (version, aliases) = try versionAndAliases(roundID, playerCount: playerCount, db)
        let entry = try Self.current(roundID, nil, aliases: aliases, setupCount: setupCount, db)
        guard var snapshot = entry.setup else { throw StoreError.notFound("Round") }
        snapshot.events = entry.events
        snapshot.version = version
        return RoundBoard(snapshot, scores: entry.scores)
    }

    /// `setupChanges` as a board may be kept under it: none inside a write that has changed a
    /// round's setup and not committed (the count moves only at the commit).
    private func setupCount(_ db: Database) -> UInt64? {
        setupChanges.isAhead(in: db) ? nil : setupChanges.value
    }

    /// The alias map (player → whom they were merged into), kept until a player changes.
    /// `playerCount`: `playerChanges` read before the transaction's first statement.
    func currentAliases(playerCount: UInt64, _ db: Database) throws -> [String: String] {
        // Inside a write that changed players (a merge), the map read is not yet the count's.
        if playerChanges.isAhead(in: db) { return try Self.aliasMap(db) }
        if let kept = keptAliases.value(.all, at: playerCount) { return kept }
        let map = try Self.aliasMap(db)
        keptAliases.keep(map, for: .all, readAt: playerCount)
        return map
    }

    /// What the group commit decides scores against and grows: the round's cache entry,
    /// taken out and brought up to date, its current scores and setup moved out of it so that
    /// each is referenced once and grows in place (a shared copy cost three dictionaries of
    /// the whole round per score). `DomainStore.RoundState.entry` puts it back.
    func takeRoundState(_ roundID: UUID, _ db: Database) throws -> RoundState {
        let (setupCount, playerCount) = (setupCount(db), playerChanges.value)
        let (version, aliases) = try versionAndAliases(roundID, playerCount: playerCount, db)
        var entry = try Self.current(roundID, boards.take(roundID), aliases: aliases, setupCount: setupCount, db)
        entry.board = nil
        guard var setup = entry.setup else { throw StoreError.notFound("Round") }
        entry.setup = nil
        setup.version = version
        let scores = entry.scores
        entry.scores = CurrentScores(events: [])
        return RoundState(setup: setup, scores: scores, rest: entry)
    }

    /// The round's version, and the merged identities (kept while no player changes: every
    /// board read and group commit needs them, and they change about never).
    private func versionAndAliases(_ roundID: UUID, playerCount: UInt64, _ db: Database) throws -> (Int, [String: String]) {
        guard let version = try Int.fetchOne(db.cachedStatement(sql: "SELECT version FROM rounds WHERE id = ?"), arguments: [roundID.text]) else {
            throw StoreError.notFound("Round")
        }
        return (version, try currentAliases(playerCount: playerCount, db))
    }

    /// The cache entry brought up to date: events stored since it was read folded in, the
    /// round's setup (without events) read again if its stamp moved.
    private static func current(
        _ roundID: UUID, _ cached: BoardCache.Entry?, aliases: [String: String], setupCount: UInt64?,
        _ db: Database
    ) throws -> BoardCache.Entry {
        var cached = cached
        var entry: BoardCache.Entry
        if var grown = cached.take(), grown.aliases == aliases,
            try grown.lastRowID == 0
                || String.fetchOne(
                    db.cachedStatement(sql: "SELECT id FROM score_events WHERE rowid = ? AND roundID = ?"),
                    arguments: [grown.lastRowID, roundID.text]) == grown.lastEventID
        {
            // Let go of the old board first: the events and scores it shares are then
            // referenced once, and grow in place.
            grown.board = nil
            let added = try Self.events(of: roundID, after: grown.lastRowID, aliases: aliases, db)
            if let last = added.last {
                grown.lastRowID = last.rowID
                grown.lastEventID = last.event.id.text
                grown.events.append(contentsOf: added.map(\.event))
                grown.scores.add(added.map(\.event))
                if grown.setup != nil { try Self.addReporterNames(&grown.setup!, from: added.map(\.event), db) }
            }
            entry = grown
        } else {
            let all = try Self.events(of: roundID, after: 0, aliases: aliases, db)
            let events = all.map(\.event)
            entry = BoardCache.Entry(
                lastRowID: all.last?.rowID ?? 0, lastEventID: all.last?.event.id.text ?? "", events: events,
                scores: CurrentScores(events: events), aliases: aliases, board: nil,
                setup: nil, setupStamp: "", setupCount: nil, used: 0)
        }
        // The round itself (players, course, event, signatures) is read again only when its
        // stamp says it changed; a new score alone leaves it as it was, and while nothing but
        // scores was committed the stamp is not even read.
        if entry.setup != nil, let setupCount, entry.setupCount == setupCount { return entry }
        let stamp = try Self.setupStamp(roundID, aliases: aliases, db)
        entry.setupCount = setupCount
        if entry.setup == nil || entry.setupStamp != stamp {
            // Boards and score entry see a team round's teams in its players' places.
            var setup = try Self.snapshot(roundID, db, events: entry.events).scoringView
            setup.events = []
            entry.setup = setup
            entry.setupStamp = stamp
        }
        return entry
    }

    /// What a round's board shows besides its events, as one comparable text: the round's
    /// clock (its status, players, divisions and cards change with it), its course's and
    /// event's clocks, its signatures and mulligan sales (append-only: their counts), its night's frozen
    /// handicaps and season, and the clock of each of its
    /// players and of whoever they are an alias of.
    static func setupStamp(_ roundID: UUID, aliases: [String: String], _ db: Database) throws -> String {
        let round =
            try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT r.updatedAt || '|' || COALESCE(c.updatedAt, '-') || '|' || COALESCE(e.updatedAt, '-') || '|'
                               || (SELECT COUNT(*) FROM signatures s WHERE s.roundID = r.id) || '|'
                               || (SELECT COUNT(*) FROM mulligan_sales m WHERE m.roundID = r.id) || '|'
                               || COALESCE((SELECT group_concat(f.frozenAt) FROM frozen_handicaps f WHERE f.eventID = r.eventID), '') || '|'
                               || COALESCE((SELECT s.updatedAt FROM seasons s WHERE s.id = e.seasonID), '') || '|'
                               || COALESCE((SELECT group_concat(p.id || p.updatedAt || COALESCE(p.aliasOf, ''), ',')
                                            FROM round_players rp JOIN players p ON p.id = rp.playerID WHERE rp.roundID = r.id), '')
                        FROM rounds r LEFT JOIN courses c ON c.id = r.courseID LEFT JOIN events e ON e.id = r.eventID WHERE r.id = ?
                        """), arguments: [roundID.text]) ?? ""
        // Merged identities are rare: only then are the canonical players' clocks read too.
        guard !aliases.isEmpty else { return round }
        let canonical = Array(Set(aliases.values))
        let stamps = try String.fetchAll(
            db, sql: "SELECT id || updatedAt FROM players WHERE id IN (\(databaseQuestionMarks(count: canonical.count))) ORDER BY id",
            arguments: StatementArguments(canonical))
        return round + "|" + stamps.joined(separator: ",")
    }

    /// A round's events stored after `rowID`, in the order they were stored, each read under
    /// its canonical player.
    static func events(of roundID: UUID, after rowID: Int64, aliases: [String: String], _ db: Database) throws -> [(rowID: Int64, event: ScoreEvent)]
    {
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT rowid, \(ScoreEventRecord.columns) FROM score_events WHERE roundID = ? AND rowid > ? ORDER BY rowid"),
            arguments: [roundID.text, rowID])
        var result: [(rowID: Int64, event: ScoreEvent)] = []
        while let row = try rows.next() {
            result.append((row[0], try ScoreEventRecord.event(row, from: 1, aliases: aliases)))
        }
        return result
    }
}
