import Foundation
import GRDB
import HyzerCore
import Synchronization

/// Each recently read round's score events and current scores, so the board after a new
/// score reads and folds in only the events stored since (score events are append-only:
/// a round's events only ever grow, in rowid order). Everything else of a round — its
/// players, course, event, signatures — is read fresh every time: small, and never stale.
final class BoardCache: Sendable {
    struct Entry: Sendable {
        var lastRowID: Int64
        var lastEventID: String
        var events: [ScoreEvent]
        var scores: CurrentScores
        /// The alias map the events were read under: a merge of identities starts over.
        var aliases: [String: String]
        var used: UInt64
    }

    static let capacity = 64
    private let state = Mutex<(entries: [UUID: Entry], clock: UInt64)>(([:], 0))

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

    func board(_ roundID: UUID, _ db: Database) throws -> RoundBoard {
        let aliases = try Self.aliasMap(db)
        var entry: BoardCache.Entry
        if var cached = boards.take(roundID), cached.aliases == aliases,
           try String.fetchOne(db, sql: "SELECT id FROM score_events WHERE rowid = ? AND roundID = ?", arguments: [cached.lastRowID, roundID.text]) == cached.lastEventID
            || cached.lastRowID == 0 {
            let added = try Self.events(of: roundID, after: cached.lastRowID, aliases: aliases, db)
            if let last = added.last {
                cached.lastRowID = last.rowID
                cached.lastEventID = last.event.id.text
                cached.events.append(contentsOf: added.map(\.event))
                cached.scores.add(added.map(\.event))
            }
            entry = cached
        } else {
            let all = try Self.events(of: roundID, after: 0, aliases: aliases, db)
            let events = all.map(\.event)
            entry = BoardCache.Entry(lastRowID: all.last?.rowID ?? 0, lastEventID: all.last?.event.id.text ?? "", events: events,
                                     scores: CurrentScores(events: events), aliases: aliases, used: 0)
        }
        let snapshot = try Self.snapshot(roundID, db, events: entry.events)
        boards.store(entry, for: roundID)
        return RoundBoard(snapshot, scores: entry.scores)
    }

    /// A round's events stored after `rowID`, in the order they were stored, each read under
    /// its canonical player. Decoded column by column: a large round has tens of thousands.
    static func events(of roundID: UUID, after rowID: Int64, aliases: [String: String], _ db: Database) throws -> [(rowID: Int64, event: ScoreEvent)] {
        let rows = try Row.fetchCursor(db, sql: """
            SELECT rowid, id, playerID, hole, strokes, dnf, reportedBy, deviceID, supersedes, resolves, recordedAt, penalties
            FROM score_events WHERE roundID = ? AND rowid > ? ORDER BY rowid
            """, arguments: [roundID.text, rowID])
        var result: [(rowID: Int64, event: ScoreEvent)] = []
        while let row = try rows.next() {
            let id: String = row[1], player: String = row[2]
            let strokes: Strokes
            if row[5] as Bool {
                strokes = .dnf
            } else if let count = row[4] as Int? {
                strokes = .count(count)
            } else {
                throw StoreError.corrupt("score event \(id) has neither strokes nor DNF")
            }
            let resolves: String = row[9]
            let event = ScoreEvent(
                id: try StoredValue.uuid(id, "score_events.id"), roundID: roundID,
                playerID: try StoredValue.uuid(aliases[player] ?? player, "score_events.playerID"),
                hole: row[3], strokes: strokes,
                reportedBy: try (row[6] as String?).map { try StoredValue.uuid($0, "score_events.reportedBy") },
                deviceID: try StoredValue.uuid(row[7], "score_events.deviceID"),
                supersedes: try (row[8] as String?).map { try StoredValue.uuid($0, "score_events.supersedes") },
                resolves: resolves.isEmpty ? [] : try resolves.split(separator: " ").map { try StoredValue.uuid(String($0), "score_events.resolves") },
                recordedAt: try StoredValue.hlc(row[10], "score_events.recordedAt"),
                penalties: row[11]
            )
            result.append((row[0], event))
        }
        return result
    }
}
