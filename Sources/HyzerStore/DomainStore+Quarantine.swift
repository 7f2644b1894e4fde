import Foundation
import GRDB
import HyzerCore

/// A pulled record this device could not read, kept until a build that reads it applies it
/// or an admin dismisses it.
public struct QuarantinedRecord: Sendable, Equatable {
    public var record: UnreadableRecord
    public var firstSeenAt: Date
    public var lastSeenAt: Date
}

extension DomainStore {
    /// Keeps `records` in the quarantine, in the caller's transaction: a newer version of a
    /// record replaces the one kept, the same one only says it was seen again. Returns how
    /// many were new or newer.
    static func quarantine(_ records: [UnreadableRecord], at moment: Date, _ db: Database) throws -> Int {
        guard !records.isEmpty else { return 0 }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO quarantine (recordType, recordID, hlc, payload, reason, firstSeenAt, lastSeenAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (recordType, recordID) DO UPDATE SET
                    hlc = excluded.hlc, payload = excluded.payload, reason = excluded.reason, lastSeenAt = excluded.lastSeenAt
                WHERE excluded.hlc >= quarantine.hlc
                """)
        var kept = 0
        for record in records {
            let before = try String.fetchOne(
                db, sql: "SELECT hlc FROM quarantine WHERE recordType = ? AND recordID = ?", arguments: [record.type, record.id])
            try statement.execute(arguments: [record.type, record.id, record.hlc, record.payload, record.reason, moment, moment])
            if let before, before >= record.hlc { continue }
            kept += 1
        }
        return kept
    }

    /// Takes out of the quarantine what a readable version (`type`, `id` at `hlc` or newer)
    /// makes moot: under last-writer-wins the kept version could never win again.
    static func release(_ type: RecordType, _ id: String, through hlc: HLC, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM quarantine WHERE recordType = ? AND recordID = ? AND hlc <= ?", arguments: [type.rawValue, id, hlc.description])
    }

    static func hasQuarantine(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM quarantine)") ?? false
    }

    /// The records kept, oldest first (at most `limit`).
    public func quarantined(limit: Int = 500) async throws -> [QuarantinedRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT recordType, recordID, hlc, payload, reason, firstSeenAt, lastSeenAt FROM quarantine
                    ORDER BY firstSeenAt, recordType, recordID LIMIT ?
                    """, arguments: [limit]
            ).map { row in
                QuarantinedRecord(
                    record: UnreadableRecord(type: row[0], id: row[1], hlc: row[2], payload: row[3], reason: row[4]),
                    firstSeenAt: row[5], lastSeenAt: row[6])
            }
        }
    }

    public func quarantineCount() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM quarantine") ?? 0 }
    }

    /// An admin lets a kept record go: it is deleted here (the cloud still has it) and the
    /// change log says who did it and what the record was. False when it is not kept.
    public func dismissQuarantined(type: String, id: String, by actor: UUID?) async throws -> Bool {
        try await pool.write { db in
            guard
                let reason = try String.fetchOne(
                    db, sql: "SELECT reason FROM quarantine WHERE recordType = ? AND recordID = ?", arguments: [type, id])
            else { return false }
            try db.execute(sql: "DELETE FROM quarantine WHERE recordType = ? AND recordID = ?", arguments: [type, id])
            try db.execute(
                sql: "INSERT INTO change_audit (id, at, actorID, recordType, recordID, change) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [UUID().text, self.now(), actor?.text, type, id, "dismissed an unreadable record from the cloud (\(reason))"])
            return true
        }
    }
}
