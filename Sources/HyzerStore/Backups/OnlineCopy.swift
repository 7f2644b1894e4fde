import Foundation
import GRDB
import HyzerCore

extension DatabasePool {
    /// Copies the database as of one read snapshot into a new single file, with SQLite's
    /// online backup: writers go on meanwhile (WAL), and the copy holds none of their
    /// half-done work.
    func onlineCopy(to url: URL) async throws {
        try await read { db in try db.copy(to: url) }
    }
}

extension Database {
    /// Copies this connection's view of the database into a new self-contained file (no
    /// -wal beside it), with SQLite's backup API.
    func copy(to url: URL) throws {
        let destination = try DatabaseQueue(path: url.path)
        try destination.writeWithoutTransaction { copy in
            try backup(to: copy)
            try copy.execute(sql: "PRAGMA journal_mode = DELETE")
        }
        try destination.close()
    }
}

extension DomainStore {
    /// Replaces every row with those of a verified, migrated copy, in one write transaction
    /// on the live pool: a reader sees the old data or the new, never a mix. Every round's
    /// version then jumps past any version served before, so the existing observation
    /// republishes every board and stream by itself.
    /// `savingCurrentTo`: the data being replaced is copied there first, in the same write
    /// access, so that no write can commit between the copy and the replacement.
    func replaceContents(with copy: URL, savingCurrentTo current: URL) async throws {
        let source = try DatabaseQueue(path: copy.path)
        try await pool.writeWithoutTransaction { db in
            let before = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(version), 0) FROM rounds") ?? 0
            try db.copy(to: current)
            try source.read { restored in try restored.backup(to: db) }
            try db.inTransaction {
                try db.execute(sql: "UPDATE rounds SET version = version + ?", arguments: [before + 1])
                try db.notifyChanges(in: .fullDatabase)
                return .commit
            }
        }
        try source.close()
        let latest = try await pool.read { db in try Self.latestClockReading(db) }
        if let latest {
            let wall = now().millisecondsSince1970
            clock.withLock { $0.receive(latest, wallMillis: wall) }
        }
    }

    /// SQLite's quick check, run on start: a damaged file is found before it serves anything.
    func quickCheck() throws {
        let result = try pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        guard result == ["ok"] else { throw StoreError.damaged(result.prefix(3).joined(separator: "; ")) }
    }
}
