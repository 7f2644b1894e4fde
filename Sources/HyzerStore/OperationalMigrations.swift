import GRDB

/// The schema of `sync.sqlite`. Migrations are named and append-only: never edit one that
/// has shipped, add the next.
enum OperationalMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-device") { db in
            try db.create(table: "device") { t in
                t.primaryKey("singleton", .integer).check(sql: "singleton = 1")
                t.column("id", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
        }
        // The outbox of versions before 0.7 lived here. Since then it lives in domain.sqlite
        // (`DomainMigrations` "v5-outbox", the same table), written in the transaction of the
        // change it announces; entries left here are moved over on open
        // (`Stores.adoptLegacyOutbox`) and nothing is written here again. The migration stays
        // as it shipped: migrations are append-only, and a file made by 0.6 must still open.
        migrator.registerMigration("v2-outbox") { db in
            try Outbox.createTable(db)
            try db.create(table: "change_tokens") { t in
                t.primaryKey("zone", .text)
                t.column("token", .integer).notNull()
            }
            try db.create(table: "sync_log") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("at", .datetime).notNull()
                t.column("operation", .text).notNull()
                t.column("records", .integer).notNull()
                t.column("durationMs", .integer).notNull()
                t.column("result", .text).notNull()
                t.column("message", .text)
            }
        }
        // Device-local account bookkeeping: sessions and tokens never leave the device that
        // issued them.
        migrator.registerMigration("v3-accounts") { db in
            try db.create(table: "sessions") { t in
                t.primaryKey("key", .text)
                t.column("value", .blob).notNull()
                t.column("playerID", .text).indexed()
                t.column("expiresAt", .double)
            }
            try db.create(table: "api_tokens") { t in
                t.primaryKey("id", .text)
                t.column("playerID", .text).notNull().indexed()
                t.column("name", .text).notNull()
                t.column("tokenHash", .text).notNull().unique()
                t.column("createdAt", .datetime).notNull()
                t.column("lastUsedAt", .datetime)
                t.column("revokedAt", .datetime)
            }
            try db.create(table: "one_time_links") { t in
                t.primaryKey("id", .text)
                t.column("tokenHash", .text).notNull().unique()
                t.column("kind", .text).notNull().check(sql: "kind IN ('setup', 'invite')")
                t.column("role", .text).notNull()
                t.column("playerID", .text)
                t.column("createdBy", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("expiresAt", .datetime).notNull()
                t.column("usedAt", .datetime)
            }
            try db.create(table: "sign_ins") { t in
                t.primaryKey("playerID", .text)
                t.column("at", .datetime).notNull()
            }
        }
        // What happened to the stores themselves (a rebuilt sync.sqlite, a recovered or
        // restored domain.sqlite), for the admin page.
        migrator.registerMigration("v4-store-events") { db in
            try db.create(table: "store_events") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("at", .datetime).notNull()
                t.column("kind", .text).notNull()
                t.column("detail", .text).notNull()
            }
        }
        return migrator
    }
}
