import Foundation
import GRDB

/// How Hyzer opens either of its SQLite files: one configuration, and the file's own
/// migrator as the schema's only author.
enum StoreFile {
    /// `durable: false` skips the fsync per commit, for bookkeeping that is rebuilt or
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
        try migrator.migrate(pool)
        return pool
    }
}
