import Foundation
import GRDB
import HyzerCore
import HyzerStore
import Synchronization

/// The zero-setup cloud: a SQLite file shared by the instances on one machine. SQLite
/// serializes writers across processes, so assigning change numbers inside the write
/// transaction can never let a pull skip one.
public final class EmbeddedCloud: CloudDatabase {
    public let path: String
    private let pollInterval: Duration
    private let state = Mutex<DatabasePool?>(nil)

    public init(path: String, pollInterval: Duration = .milliseconds(50)) {
        self.path = path
        self.pollInterval = pollInterval
    }

    public var displayName: String { "Embedded cloud (\(path))" }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-records") { db in
            try db.create(table: "records") { t in
                t.column("zone", .text).notNull()
                t.column("type", .text).notNull()
                t.column("id", .text).notNull()
                t.column("hlc", .text).notNull()
                t.column("payload", .blob).notNull()
                t.column("seq", .integer).notNull()
                t.primaryKey(["zone", "type", "id"])
            }
            try db.create(index: "records_by_seq", on: "records", columns: ["zone", "seq"])
        }
        migrator.registerMigration("v2-identities") { db in
            try db.create(table: "identities") { t in
                t.column("zone", .text).notNull()
                t.column("handle", .text).notNull()
                t.column("recordName", .text).notNull()
                t.primaryKey(["zone", "handle"])
            }
        }
        return migrator
    }

    private func pool() throws -> DatabasePool {
        if let pool = state.withLock({ $0 }) { return pool }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            let pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
            state.withLock { $0 = pool }
            return pool
        } catch  where StoreFile.isDamage(error) {
            throw CloudError.damaged("\(path) is not a readable database (\(error))")
        } catch {
            throw CloudError.unreachable("\(path): \(error)")
        }
    }

    /// A file damaged or replaced while running is "damaged" (and is opened afresh next
    /// time, so a repaired file is used); a busy or failing disk is "unreachable". Neither
    /// is the records' fault.
    private func classified(_ error: any Error) -> any Error {
        if error is CloudError { return error }
        if StoreFile.isDamage(error) {
            state.withLock { $0 = nil }
            return CloudError.damaged("\(path) is not a readable database (\(error))")
        }
        if let error = error as? DatabaseError {
            if error.resultCode == .SQLITE_READONLY { return CloudError.readOnly }
            if [.SQLITE_BUSY, .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_FULL].contains(error.resultCode.primaryResultCode) {
                return CloudError.unreachable("\(path): \(error)")
            }
        }
        return error
    }

    public func claimIdentity(handle: String, proposed recordName: String, zone: String) async throws -> String {
        let pool = try pool()
        do {
            return try await pool.write { db in
                try db.execute(
                    sql: "INSERT OR IGNORE INTO identities (zone, handle, recordName) VALUES (?, ?, ?)", arguments: [zone, handle, recordName])
                return try String.fetchOne(db, sql: "SELECT recordName FROM identities WHERE zone = ? AND handle = ?", arguments: [zone, handle])
                    ?? recordName
            }
        } catch {
            throw classified(error)
        }
    }

    public func resolveAccount() async -> AccountStatus {
        do {
            _ = try pool()
            return FileManager.default.isWritableFile(atPath: path) ? .available : .restricted
        } catch CloudError.damaged {
            return .damaged
        } catch {
            return .temporarilyUnavailable
        }
    }

    public func save(_ records: [CloudRecord], zone: String) async throws -> Int {
        let pool = try pool()
        do {
            return try await pool.write { db in
                var seq = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(seq), 0) FROM records WHERE zone = ?", arguments: [zone]) ?? 0
                var changed = 0
                for record in records {
                    let existing = try Row.fetchOne(
                        db, sql: "SELECT hlc, payload FROM records WHERE zone = ? AND type = ? AND id = ?",
                        arguments: [zone, record.type.rawValue, record.id]
                    )
                    .flatMap { row -> CloudRecord? in
                        guard let hlc = HLC(row["hlc"]) else { return nil }
                        return CloudRecord(type: record.type, id: record.id, hlc: hlc, payload: row["payload"])
                    }
                    guard let merged = CloudMerge.merge(existing: existing, incoming: record) else { continue }
                    // A damaged or hostile row may hold the largest number: refuse, never trap.
                    guard seq < Int64.max else { throw CloudError.damaged("the change numbers of zone \(zone) are used up") }
                    seq += 1
                    changed += 1
                    try db.execute(
                        sql: """
                            INSERT INTO records (zone, type, id, hlc, payload, seq) VALUES (?, ?, ?, ?, ?, ?)
                            ON CONFLICT (zone, type, id) DO UPDATE SET hlc = excluded.hlc, payload = excluded.payload, seq = excluded.seq
                            """, arguments: [zone, merged.type.rawValue, merged.id, merged.hlc.description, merged.payload, seq])
                }
                return changed
            }
        } catch {
            throw classified(error)
        }
    }

    public func changes(zone: String, after token: Int64, limit: Int) async throws -> ChangePage {
        do {
            return try await pool().read { db in
                // A cursor: a page is tens of thousands of rows, and a fetched row array would
                // hold every one of them twice over while the records are built.
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT type, id, hlc, payload, seq FROM records WHERE zone = ? AND seq > ? ORDER BY seq LIMIT ?",
                    arguments: [zone, token, limit])
                var records: [CloudRecord] = []
                var unreadable: [UnreadableRecord] = []
                var last = token
                while let row = try rows.next() {
                    last = row[4]
                    switch UnreadableRecord.read(type: row[0], id: row[1], hlc: row[2], payload: row[3]) {
                    case .success(let record): records.append(record)
                    case .failure(let record): unreadable.append(record)
                    }
                }
                return ChangePage(records: records, unreadable: unreadable, token: last)
            }
        } catch {
            throw classified(error)
        }
    }

    public func changeCount(zone: String, after token: Int64) async throws -> Int {
        do {
            return try await pool().read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM records WHERE zone = ? AND seq > ?", arguments: [zone, token]) ?? 0
            }
        } catch {
            throw classified(error)
        }
    }

    /// Other processes' commits are invisible to this process's observers, so the newest
    /// change number is polled; a new one is a hint.
    public func hints(zone: String) -> AsyncStream<CloudSignal> {
        let interval = pollInterval
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                var last: Int64?
                while !Task.isCancelled {
                    // quiet: a poll that fails only misses a hint; the next poll, the periodic
                    // sync and the pull itself (which reports the cloud's state) come anyway.
                    if let pool = try? self.pool(),
                        let seq = try? await pool.read({ db in  // quiet: as above
                            try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(seq), 0) FROM records WHERE zone = ?", arguments: [zone]) ?? 0
                        })
                    {
                        if let last, seq != last { continuation.yield(.changed) }
                        last = seq
                    }
                    try? await Task.sleep(for: interval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
