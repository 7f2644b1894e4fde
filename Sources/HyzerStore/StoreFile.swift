import Foundation
import GRDB

/// How Hyzer opens either of its SQLite files: one configuration, and the file's own
/// migrator as the schema's only author.
public enum StoreFile {
    /// `durable: true` fsyncs every commit; `durable: false` skips that, for bookkeeping that is rebuilt or
    /// re-queued after a power cut (see `OperationalStore`).
    static func configuration(durable: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        if !durable {
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        }
        return configuration
    }

    static func open(path: String, migrator: DatabaseMigrator, durable: Bool) throws -> DatabasePool {
        let pool = try DatabasePool(path: path, configuration: configuration(durable: durable))
        if durable {
            // GRDB sets up its writer in WAL mode with synchronous = NORMAL (after any
            // prepareDatabase), so a commit would reach the disk only at the next checkpoint.
            // The user's data is FULL: each commit is fsynced before the write returns, so an
            // acknowledged score survives a power cut. The pool keeps this one writer for life.
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                try WriterTuning.everyday.apply(db)
            }
        }
        try refuseNewer(pool, migrator: migrator, file: URL(fileURLWithPath: path).lastPathComponent)
        try migrator.migrate(pool)
        return pool
    }

    /// How often the writer checkpoints and how many pages it keeps. Most of a large store is
    /// indexes of random ids, so each commit dirties pages all over them: a page written many
    /// times between two checkpoints is copied to the file once, and one kept in the cache is
    /// not read again.
    public enum WriterTuning: Sendable {
        /// 32 MB of log between checkpoints, 16 MB of pages.
        case everyday
        /// An empty device's first sync, a million events in large transactions: 128 MB of log
        /// and 64 MB of pages, for as long as it lasts.
        case bulkLoad

        var checkpointPages: Int { self == .everyday ? 8192 : 32768 }
        var cacheKiB: Int { self == .everyday ? 16384 : 65536 }
        /// After a first sync the log file would keep its 128 MB: every day it is cut back to
        /// 64 MB once a checkpoint empties it.
        var logLimitBytes: Int { self == .everyday ? 64 << 20 : -1 }

        func apply(_ db: Database) throws {
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(checkpointPages)")
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)")
            try db.execute(sql: "PRAGMA journal_size_limit = \(logLimitBytes)")
        }
    }

    /// A schema with migrations this code does not know came from a newer Hyzer: migrating or
    /// writing it could break it.
    static func refuseNewer(_ reader: some DatabaseReader, migrator: DatabaseMigrator, file: String) throws {
        let unknown = try reader.read { db -> [String] in
            guard try migrator.hasBeenSuperseded(db) else { return [] }
            let known = Set(migrator.migrations)
            return try migrator.appliedIdentifiers(db).filter { !known.contains($0) }.sorted()
        }
        if let found = unknown.last {
            throw StoreError.newerSchema(file: file, found: found, known: migrator.migrations.last ?? "none")
        }
    }

    /// Every schema object as SQLite keeps it (type, name, table and SQL), SQLite's own
    /// included: they are compared like any other, so no name can hide an object from the
    /// check. The statistics tables `ANALYZE` may add are the one exception, and only by
    /// their exact type and name (a table can hold no code).
    static func schema(_ db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT type || ' ' || name || ' ' || tbl_name || ' ' || COALESCE(sql, '') FROM sqlite_master
                WHERE NOT (type = 'table' AND name IN ('sqlite_stat1', 'sqlite_stat2', 'sqlite_stat3', 'sqlite_stat4'))
                ORDER BY type, name
                """)
    }

    /// The views and triggers of a database (type, name, table and SQL), read from the schema alone.
    static func codeObjects(_ db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT type || ' ' || name || ' ' || tbl_name || ' ' || COALESCE(sql, '') FROM sqlite_master
                WHERE type IN ('view', 'trigger') ORDER BY type, name
                """)
    }

    /// The views and triggers a migrator writes into an empty database.
    static func expectedCode(_ migrator: DatabaseMigrator) throws -> [String] {
        let queue = try DatabaseQueue()
        try migrator.migrate(queue)
        return try queue.read(codeObjects)
    }

    /// The schema a migrator writes into an empty database.
    static func expectedSchema(_ migrator: DatabaseMigrator) throws -> [String] {
        let queue = try DatabaseQueue()
        try migrator.migrate(queue)
        return try queue.read(schema)
    }

    /// Whether an error means the file itself is damaged (as opposed to busy or missing).
    public static func isDamage(_ error: any Error) -> Bool {
        if case StoreError.damaged = error { return true }
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode)
    }
}
