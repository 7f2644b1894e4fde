import Foundation
import GRDB
import HyzerCore

/// A pulled record this device could not read, kept until a build that reads it applies it
/// or an admin dismisses it.
public struct QuarantinedRecord: Sendable, Equatable {
    /// The row's own key, for dismissing it: a type or id may be too long, empty or
    /// multi-line to travel in a form.
    public var key: Int64
    /// The record; in a listing its payload is only the start (`payloadBytes` is its size).
    public var record: UnreadableRecord
    public var payloadBytes: Int
    public var firstSeenAt: Date
    public var lastSeenAt: Date
}

extension DomainStore {
    /// Keeps `records` in the quarantine, in the caller's transaction. The cloud's latest row of
    /// a record is its merged state (under first-writer-wins an older version can be the one
    /// that stands), so what arrives last replaces what is kept, whatever its version says;
    /// the same row again only says it was seen again. Returns how many were new or changed.
    static func quarantine(_ records: [UnreadableRecord], at moment: Date, _ db: Database) throws -> Int {
        guard !records.isEmpty else { return 0 }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO quarantine (recordType, recordID, hlc, payload, reason, firstSeenAt, lastSeenAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (recordType, recordID) DO UPDATE SET
                    hlc = excluded.hlc, payload = excluded.payload, reason = excluded.reason, lastSeenAt = excluded.lastSeenAt
                """)
        var kept = 0
        for record in records {
            let before = try Row.fetchOne(
                db, sql: "SELECT hlc, payload FROM quarantine WHERE recordType = ? AND recordID = ?", arguments: [record.type, record.id])
            try statement.execute(arguments: [record.type, record.id, record.hlc, record.payload, record.reason, moment, moment])
            if let before, before["hlc"] == record.hlc, (before["payload"] as Data?) == record.payload { continue }
            kept += 1
        }
        return kept
    }

    /// Takes out of the quarantine a record the cloud now has in a readable form: its latest
    /// row is the merged state, so the version kept is moot whatever its clock says.
    static func release(_ type: RecordType, _ id: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM quarantine WHERE recordType = ? AND recordID = ?", arguments: [type.rawValue, id])
    }

    static func hasQuarantine(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM quarantine)") ?? false
    }

    /// The records kept, newest first (at most `limit`), each payload cut to its first
    /// `payloadPrefix` bytes: a page lists them, and a kept payload may be megabytes.
    public func quarantined(limit: Int = 50, payloadPrefix: Int = 161) async throws -> [QuarantinedRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT rowid, recordType, recordID, hlc, substr(payload, 1, ?), reason, firstSeenAt, lastSeenAt, length(payload)
                    FROM quarantine ORDER BY lastSeenAt DESC, rowid DESC LIMIT ?
                    """, arguments: [payloadPrefix, limit]
            ).map(Self.kept)
        }
    }

    /// Every record kept, whole, `batch` at a time in key order, for reading them again.
    public func everyQuarantined(after key: Int64, batch: Int) async throws -> [QuarantinedRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT rowid, recordType, recordID, hlc, payload, reason, firstSeenAt, lastSeenAt, length(payload)
                    FROM quarantine WHERE rowid > ? ORDER BY rowid LIMIT ?
                    """, arguments: [key, batch]
            ).map(Self.kept)
        }
    }

    private static func kept(_ row: Row) -> QuarantinedRecord {
        QuarantinedRecord(
            key: row[0], record: UnreadableRecord(type: row[1], id: row[2], hlc: row[3], payload: row[4] ?? Data(), reason: row[5]),
            payloadBytes: row[8], firstSeenAt: row[6], lastSeenAt: row[7])
    }

    public func quarantineCount() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM quarantine") ?? 0 }
    }

    /// An admin lets a kept record go (`key`, from a listing): it is deleted here (the cloud
    /// still has it; only a dismissal on each server removes it there) and the change log
    /// says who did it and which record, its type, id and reason cut short. False when it is
    /// not kept.
    public func dismissQuarantined(key: Int64, by actor: UUID?) async throws -> Bool {
        try await pool.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT recordType, recordID, reason FROM quarantine WHERE rowid = ?", arguments: [key])
            else { return false }
            try db.execute(sql: "DELETE FROM quarantine WHERE rowid = ?", arguments: [key])
            let (type, id, reason): (String, String, String) = (row[0], row[1], row[2])
            try db.execute(
                sql: "INSERT INTO change_audit (id, at, actorID, recordType, recordID, change) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    UUID().text, self.now(), actor?.text, String(type.prefix(80)), String(id.prefix(120)),
                    "dismissed a record kept unread (\(reason.prefix(200)))",
                ])
            return true
        }
    }
}
