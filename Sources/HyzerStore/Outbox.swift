import Foundation
import GRDB
import HyzerCore

/// One row of the outbox (`SyncMetadata`): a local record waiting to reach the cloud.
public struct OutboxEntry: Hashable, Sendable {
    public enum Status: String, Sendable, CaseIterable {
        case pending, inFlight, synced, failed
    }

    public var type: RecordType
    public var id: String
    /// The version to push; marking it synced only counts if it is still this one.
    public var hlc: HLC
    public var status: Status
    public var attempts: Int
    public var lastError: String?
    public var nextAttemptAt: Date?
}

public struct OutboxCounts: Hashable, Sendable {
    public var pending = 0
    public var inFlight = 0
    public var failed = 0
    public var synced = 0

    public init() {}
}

public struct SyncLogEntry: Hashable, Sendable {
    public var at: Date
    public var operation: String
    public var records: Int
    public var durationMs: Int
    public var result: String
    public var message: String?

    public init(at: Date, operation: String, records: Int, durationMs: Int, result: String, message: String? = nil) {
        self.at = at
        self.operation = operation
        self.records = records
        self.durationMs = durationMs
        self.result = result
        self.message = message
    }
}

/// The outbox (`SyncMetadata`): local records waiting to reach the cloud. It lives in
/// `domain.sqlite`, beside the records, so every local write queues itself in its own
/// transaction (`enqueue(_:_:)`): a crash can never keep a committed change out of it, nor
/// queue one that did not commit. The sync engine claims and marks entries here.
public final class Outbox: Sendable {
    let pool: DatabasePool

    init(pool: DatabasePool) {
        self.pool = pool
    }

    // MARK: Enqueueing

    /// Marks local records as waiting to be pushed. A newer version replaces an older one
    /// whatever its state; the same or an older version changes nothing.
    public func enqueue(_ records: [(RecordType, String, HLC)]) async throws {
        guard !records.isEmpty else { return }
        try await pool.write { db in try Self.enqueue(records, db) }
    }

    /// A change of the entries' own states (claimed, synced, failed, released) commits
    /// without the fsync that user data gets: lost in a power cut, it only means a record is
    /// pushed again, and pushes are idempotent. The next durable commit syncs it anyway (the
    /// WAL is one file, synced to its end). Saves a push two fsyncs.
    private func bookkeeping<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            let outcome = Result { () throws -> T in
                var value: T?
                try db.inTransaction {
                    value = try body(db)
                    return .commit
                }
                guard let value else { throw StoreError.notFound("Outbox result") }
                return value
            }
            // Back to FULL before anything else may write on this connection.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            return try outcome.get()
        }
    }

    /// `enqueue` inside the caller's write transaction.
    static func enqueue(_ records: [(RecordType, String, HLC)], _ db: Database) throws {
        guard !records.isEmpty else { return }
        var sequence = try Int.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(sequence), 0) FROM outbox")) ?? 0
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO outbox (recordType, recordID, hlc, status, attempts, sequence) VALUES (?, ?, ?, 'pending', 0, ?)
                ON CONFLICT (recordType, recordID) DO UPDATE SET hlc = excluded.hlc, status = 'pending', attempts = 0,
                    lastError = NULL, nextAttemptAt = NULL, sequence = excluded.sequence
                WHERE excluded.hlc > outbox.hlc
                """)
        for (type, id, hlc) in records {
            sequence += 1
            try statement.execute(arguments: [type.rawValue, id, hlc.description, sequence])
        }
    }

    /// The outbox table as both stores' migrations made it (sync.sqlite's before 0.7,
    /// domain.sqlite's since): one definition, so the two can never differ. Shipped schema:
    /// change it only through a new migration.
    static func createTable(_ db: Database) throws {
        try db.create(table: "outbox") { t in
            t.column("recordType", .text).notNull()
            t.column("recordID", .text).notNull()
            t.column("hlc", .text).notNull()
            t.column("status", .text).notNull().check(sql: "status IN ('pending', 'inFlight', 'synced', 'failed')")
            t.column("attempts", .integer).notNull().defaults(to: 0)
            t.column("lastError", .text)
            t.column("nextAttemptAt", .datetime)
            t.column("sequence", .integer).notNull()
            t.primaryKey(["recordType", "recordID"])
        }
        try db.create(index: "outbox_by_status", on: "outbox", columns: ["status", "nextAttemptAt"])
    }

    // MARK: Pushing

    /// Takes up to `limit` entries that are due (pending, or failed and past their retry
    /// time) and marks them in flight in the same transaction, so a concurrent caller can
    /// never take the same record; with them, the claimed records' current cloud form (one
    /// trip to the writer before a push). Records that no longer exist are left out.
    /// A record that cannot be read (a damaged row) is marked failed, with its error and a
    /// retry time, and left out: it must not hold back every push behind it.
    public func claimDueRecords(limit: Int, now: Date) async throws -> (entries: [OutboxEntry], records: [CloudRecord]) {
        let (claimed, unreadable) = try await bookkeeping { db in
            var claimed: (entries: [OutboxEntry], records: [CloudRecord]) = ([], [])
            var unreadable: [(OutboxEntry, String)] = []
            for entry in try Self.claim(limit: limit, now: now, db) {
                do {
                    if let record = try DomainStore.cloudRecord(entry.type, entry.id, db) { claimed.records.append(record) }
                    claimed.entries.append(entry)
                } catch {
                    unreadable.append((entry, "The record could not be read: \(error)"))
                }
            }
            return (claimed, unreadable)
        }
        for (entry, error) in unreadable {
            try await markFailed([entry], error: error, now: now)
        }
        return claimed
    }

    private static func claim(limit: Int, now: Date, _ db: Database) throws -> [OutboxEntry] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT * FROM outbox
                WHERE status = 'pending' OR (status = 'failed' AND (nextAttemptAt IS NULL OR nextAttemptAt <= ?))
                ORDER BY sequence LIMIT ?
                """, arguments: [now, limit])
        var entries: [OutboxEntry] = []
        let mark = try db.cachedStatement(sql: "UPDATE outbox SET status = 'inFlight' WHERE recordType = ? AND recordID = ?")
        for row in rows {
            do {
                let entry = try Self.entry(row)
                try mark.execute(arguments: [entry.type.rawValue, entry.id])
                entries.append(entry)
            } catch let error as StoreError {
                // Parked as failed with its reason (shown on /sync) rather than claimed again
                // on every push or dropped unseen; a later version may read it.
                try db.execute(
                    sql: """
                        UPDATE outbox SET status = 'failed', lastError = ?, nextAttemptAt = ?, attempts = attempts + 1
                        WHERE recordType = ? AND recordID = ?
                        """, arguments: ["\(error)", Date.distantFuture, row["recordType"] as String?, row["recordID"] as String?])
            }
        }
        return entries
    }

    public func markSynced(_ entries: [OutboxEntry]) async throws {
        try await bookkeeping { db in
            for entry in entries {
                // A newer local version enqueued meanwhile stays pending.
                try db.execute(
                    sql:
                        "UPDATE outbox SET status = 'synced', attempts = 0, lastError = NULL, nextAttemptAt = NULL WHERE recordType = ? AND recordID = ? AND hlc = ? AND status = 'inFlight'",
                    arguments: [entry.type.rawValue, entry.id, entry.hlc.description])
            }
        }
    }

    /// Failed entries wait `Backoff.delay` before they are due again.
    public func markFailed(_ entries: [OutboxEntry], error: String, now: Date, jitter: @Sendable () -> Double = { Double.random(in: 0...1) })
        async throws
    {
        try await bookkeeping { db in
            for entry in entries {
                let attempts = entry.attempts + 1
                let next = now.addingTimeInterval(Backoff.delay(attempt: attempts, jitter: jitter()))
                try db.execute(
                    sql:
                        "UPDATE outbox SET status = 'failed', attempts = ?, lastError = ?, nextAttemptAt = ? WHERE recordType = ? AND recordID = ? AND status = 'inFlight'",
                    arguments: [attempts, error, next, entry.type.rawValue, entry.id])
            }
        }
    }

    /// Puts entries back as pending without counting an attempt (the cloud was unreachable,
    /// not the record at fault).
    public func release(_ entries: [OutboxEntry]) async throws {
        try await bookkeeping { db in
            for entry in entries {
                try db.execute(
                    sql: "UPDATE outbox SET status = 'pending' WHERE recordType = ? AND recordID = ? AND status = 'inFlight'",
                    arguments: [entry.type.rawValue, entry.id])
            }
        }
    }

    /// After a crash, in-flight entries were never confirmed: push them again (idempotently).
    @discardableResult
    public func resetInFlight() async throws -> Int {
        try await bookkeeping { db in
            try db.execute(sql: "UPDATE outbox SET status = 'pending' WHERE status = 'inFlight'")
            return db.changesCount
        }
    }

    /// Makes failed entries due now ("Retry" on the sync page).
    public func retryFailed(type: RecordType? = nil, id: String? = nil) async throws {
        try await bookkeeping { db in
            if let type, let id {
                try db.execute(
                    sql: "UPDATE outbox SET nextAttemptAt = NULL WHERE status = 'failed' AND recordType = ? AND recordID = ?",
                    arguments: [type.rawValue, id])
            } else {
                try db.execute(sql: "UPDATE outbox SET nextAttemptAt = NULL WHERE status = 'failed'")
            }
        }
    }

    // MARK: Reading

    /// The newest entry's place in the queue: the mark a write's `isSynced(through:)` waits for.
    public func newestSequence() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(sequence), 0) FROM outbox") ?? 0 }
    }

    /// Whether every entry queued up to `sequence` has reached the cloud.
    public func isSynced(through sequence: Int) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM outbox WHERE sequence <= ? AND status != 'synced')", arguments: [sequence])
                ?? false
        }
    }

    public func counts() async throws -> OutboxCounts {
        try await pool.read { db in
            var counts = OutboxCounts()
            for row in try Row.fetchAll(db, sql: "SELECT status, COUNT(*) AS n FROM outbox GROUP BY status") {
                let n: Int = row["n"]
                switch OutboxEntry.Status(rawValue: row["status"]) {
                case .pending: counts.pending = n
                case .inFlight: counts.inFlight = n
                case .failed: counts.failed = n
                case .synced: counts.synced = n
                case nil: break
                }
            }
            return counts
        }
    }

    public func failedEntries(limit: Int = 50) async throws -> [OutboxEntry] {
        try await pool.read { db in
            // An entry this version cannot read was parked as failed by `claim` with its reason
            // and counts in the failed total; the list shows what can be named.
            try Row.fetchAll(db, sql: "SELECT * FROM outbox WHERE status = 'failed' ORDER BY sequence LIMIT ?", arguments: [limit]).compactMap {
                // quiet: counted, and its reason logged when it was parked (above).
                try? Self.entry($0)
            }
        }
    }

    public func entry(type: RecordType, id: String) async throws -> OutboxEntry? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM outbox WHERE recordType = ? AND recordID = ?", arguments: [type.rawValue, id]).map(
                Self.entry)
        }
    }

    /// Every entry's version, for reconciling with the domain store on start.
    public func versions() async throws -> [String: HLC] {
        try await pool.read { db in
            var result: [String: HLC] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT recordType, recordID, hlc FROM outbox")
            while let row = try rows.next() {
                if let hlc = HLC(row["hlc"]) { result["\(row["recordType"] as String)/\(row["recordID"] as String)"] = hlc }
            }
            return result
        }
    }

    /// Fires after each committed change of the pending count: the sync engine's
    /// "a local write happened" trigger.
    public func pendingCounts() -> some AsyncSequence<Int, any Error> & Sendable {
        ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE status = 'pending'") ?? 0 }
            .values(in: pool, bufferingPolicy: .bufferingNewest(1))
    }

    /// An entry as stored; a type, version or state this version cannot read is an error
    /// naming the entry, never a silent skip that would leave a record unpushed unseen.
    static func entry(_ row: Row) throws -> OutboxEntry {
        let id: String = row["recordID"]
        let name = "outbox entry \(row["recordType"] as String? ?? "?")/\(id)"
        return OutboxEntry(
            type: try StoredValue.raw(row["recordType"], "outbox.recordType", of: name), id: id,
            hlc: try StoredValue.hlc(row["hlc"], "outbox.hlc of \(name)"),
            status: try StoredValue.raw(row["status"], "outbox.status", of: name), attempts: row["attempts"],
            lastError: row["lastError"], nextAttemptAt: row["nextAttemptAt"])
    }
}

extension Outbox {
    /// Takes in entries kept elsewhere (`Stores.adoptLegacyOutbox`), states and attempts as
    /// they were, after what is queued here; in flight counts as pending (never confirmed).
    func adopt(_ entries: [(entry: OutboxEntry, sequence: Int)]) async throws {
        try await pool.write { db in
            let base = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(sequence), 0) FROM outbox") ?? 0
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO outbox (recordType, recordID, hlc, status, attempts, lastError, nextAttemptAt, sequence) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (recordType, recordID) DO UPDATE SET hlc = excluded.hlc, status = excluded.status, attempts = excluded.attempts,
                        lastError = excluded.lastError, nextAttemptAt = excluded.nextAttemptAt, sequence = excluded.sequence
                    WHERE excluded.hlc > outbox.hlc
                    """)
            for (entry, sequence) in entries {
                let status = entry.status == .inFlight ? .pending : entry.status
                try statement.execute(arguments: [
                    entry.type.rawValue, entry.id, entry.hlc.description, status.rawValue, entry.attempts,
                    entry.lastError, entry.nextAttemptAt, base + sequence,
                ])
            }
        }
    }

    /// How many failed entries are due for another attempt.
    public func failedDue(now: Date) async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM outbox WHERE status = 'failed' AND (nextAttemptAt IS NULL OR nextAttemptAt <= ?)", arguments: [now])
                ?? 0
        }
    }
}
