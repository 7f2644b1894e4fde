import Foundation
import GRDB

extension OperationalStore {
    /// Stores the change token once a pulled page is applied. Pulled records need no outbox
    /// entry: the cloud has them, and reconciling on start only looks at this device's own
    /// writes.
    public func setChangeToken(_ token: Int64, zone: String) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO change_tokens (zone, token) VALUES (?, ?) ON CONFLICT (zone) DO UPDATE SET token = excluded.token",
                arguments: [zone, token])
        }
        knownTokens.withLock { $0.tokens[zone] = token }
    }

    // MARK: Change tokens and the log

    public func changeToken(zone: String) async throws -> Int64 {
        let (known, resets) = knownTokens.withLock { ($0.tokens[zone], $0.resets) }
        if let known { return known }
        let token = try await pool.read { db in try Int64.fetchOne(db, sql: "SELECT token FROM change_tokens WHERE zone = ?", arguments: [zone]) ?? 0
        }
        // Kept unless a reset or a newer token came meanwhile.
        knownTokens.withLock { if $0.resets == resets, $0.tokens[zone] == nil { $0.tokens[zone] = token } }
        return token
    }

    public func appendLog(_ entry: SyncLogEntry, keep: Int = 500) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO sync_log (at, operation, records, durationMs, result, message) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [entry.at, entry.operation, entry.records, entry.durationMs, entry.result, entry.message])
            try db.execute(sql: "DELETE FROM sync_log WHERE id <= (SELECT MAX(id) FROM sync_log) - ?", arguments: [keep])
        }
    }

    public func recentLog(limit: Int = 50) async throws -> [SyncLogEntry] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sync_log ORDER BY id DESC LIMIT ?", arguments: [limit]).map {
                SyncLogEntry(
                    at: $0["at"], operation: $0["operation"], records: $0["records"], durationMs: $0["durationMs"], result: $0["result"],
                    message: $0["message"])
            }
        }
    }
}

extension OperationalStore {
    /// After the domain data was replaced: the next pull reads the whole cloud.
    func resetChangeTokens() async throws {
        try await pool.write { db in try db.execute(sql: "DELETE FROM change_tokens") }
        knownTokens.withLock { $0 = ([:], $0.resets + 1) }
    }

    // MARK: The outbox of earlier versions

    /// Entries of the outbox as versions before 0.7 kept it, in this file.
    func legacyOutboxEntries() async throws -> [(entry: OutboxEntry, sequence: Int)] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY sequence").map { row in
                (try Outbox.entry(row), row["sequence"])
            }
        }
    }

    func removeLegacyOutbox() async throws {
        try await pool.write { db in try db.execute(sql: "DELETE FROM outbox") }
    }
}
