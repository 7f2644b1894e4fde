import Foundation
import GRDB

/// Bookkeeping in `sync.sqlite` that never syncs: this device's identity, the outbox,
/// change tokens and the sync log.
public final class OperationalStore: Sendable {
    let pool: DatabasePool

    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // Bookkeeping, not user data: a commit lost to a power cut only means a record is
        // pushed again (idempotently) or re-queued by the reconcile on start. So the outbox
        // skips the fsync per commit that domain.sqlite keeps.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(pool)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-device") { db in
            try db.create(table: "device") { t in
                t.primaryKey("singleton", .integer).check(sql: "singleton = 1")
                t.column("id", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
        }
        registerSyncMigrations(&migrator)
        registerAccountMigrations(&migrator)
        return migrator
    }

    /// This instance's device id: made once, on first start, and kept for good.
    public func deviceID() throws -> UUID {
        try pool.write { db in
            if let text = try String.fetchOne(db, sql: "SELECT id FROM device WHERE singleton = 1") {
                return try StoredValue.uuid(text, "device.id")
            }
            let id = UUID()
            try db.execute(sql: "INSERT INTO device (singleton, id, createdAt) VALUES (1, ?, ?)", arguments: [id.text, Date()])
            return id
        }
    }
}
