import Foundation
import GRDB
import Synchronization

/// Bookkeeping in `sync.sqlite` that never syncs: this device's identity, the outbox,
/// change tokens, the sync log, sessions, API tokens and one-time links.
public final class OperationalStore: Sendable {
    let pool: DatabasePool
    /// The change tokens as last stored: every pull starts from one, and only this store
    /// changes them.
    let knownTokens = Mutex((tokens: [String: Int64](), resets: 0))
    /// Commits that change an API token (made or revoked; noting its use does not count):
    /// kept owners follow it.
    let tokenChanges = ChangeCounter(watching: ["api_tokens"], exceptUpdatesOf: ["lastUsedAt"])
    let tokenOwners: KeptValues<String, TokenUse>
    /// Commits that start, change or end a session: open live streams are authorized again,
    /// and kept sessions are read again.
    let sessionChanges = ChangeCounter(watching: ["sessions"])
    let sessionValues: KeptValues<String, StoredSession>
    /// The write-ahead log: another process's commit (`hyzer admin reset-password` beside the
    /// server ends sessions) changes its stamp, which the counter above cannot see.
    let walPath: String

    struct StoredSession: Sendable {
        var value: Data
        var expiresAt: Date?
        /// The log's stamp before the read: the value holds while it is unchanged.
        var wal: FileStamp?
    }

    struct TokenUse: Sendable {
        var id: String
        var playerID: String
        var lastUsed: Date?
    }

    /// Bookkeeping, not user data: a commit lost to a power cut only means a record is
    /// pushed again (idempotently) or re-queued by the reconcile on start, so this file
    /// skips the fsync per commit that domain.sqlite keeps.
    init(path: String) throws {
        pool = try StoreFile.open(path: path, migrator: OperationalMigrations.migrator, durable: false)
        tokenOwners = KeptValues(following: tokenChanges, capacity: 1024)
        sessionValues = KeptValues(following: sessionChanges, capacity: 1024)
        walPath = path + "-wal"
        let (tokenChanges, sessionChanges) = (tokenChanges, sessionChanges)
        pool.writeWithoutTransaction { db in
            db.add(transactionObserver: tokenChanges, extent: .databaseLifetime)
            db.add(transactionObserver: sessionChanges, extent: .databaseLifetime)
        }
    }

    /// A rebuilt file takes the device's id back (see `DeviceIdentityFile`) before anything
    /// asks for it; a file that already has one keeps its own.
    func adopt(deviceID id: UUID) async throws {
        try await pool.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO device (singleton, id, createdAt) VALUES (1, ?, ?)", arguments: [id.text, Date()])
        }
    }

    /// This instance's device id: made once, on first start, and kept for good.
    func deviceID() async throws -> UUID {
        try await pool.write { db in
            if let text = try String.fetchOne(db, sql: "SELECT id FROM device WHERE singleton = 1") {
                return try StoredValue.uuid(text, "device.id")
            }
            let id = UUID()
            try db.execute(sql: "INSERT INTO device (singleton, id, createdAt) VALUES (1, ?, ?)", arguments: [id.text, Date()])
            return id
        }
    }
}
