import Foundation
import GRDB
import HyzerCore
import Synchronization

extension DomainStore {
    /// Every round's version, delivered again after each committed transaction that changes
    /// one. Every writer bumps a round's version in the transaction that changes it (a local
    /// score today, a sync apply tomorrow), so this is the one place that learns of them all.
    public func roundVersions() -> some AsyncSequence<[UUID: Int], any Error> & Sendable {
        changes(of: ["rounds"]) { db in
            var versions: [UUID: Int] = [:]
            let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT id, version FROM rounds"))
            while let row = try rows.next() {
                if let id = UUID(text: row["id"]) { versions[id] = row["version"] }
            }
            return versions
        }
    }

    /// `fetch` now and after each commit that changed `tables`, each value once (repeats are
    /// dropped), the newest kept for a slow reader. Watched with a region observation, which
    /// GRDB calls on the writer after the commit as it is: a `ValueObservation` on the pool
    /// brackets its fetch in `PRAGMA query_only`, and SQLite expires every prepared statement
    /// after such a pragma, so each write compiled its SQL again (half a score's cost).
    func changes<Value: Equatable & Sendable>(of tables: [String], _ fetch: @escaping @Sendable (Database) throws -> Value)
        -> AsyncThrowingStream<Value, any Error>
    {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let last = Mutex<Value?>(nil)
        let publish: @Sendable (Database) -> Void = { db in
            do {
                let value = try fetch(db)
                let changed = last.withLock { seen in
                    defer { seen = value }
                    return seen != value
                }
                if changed { continuation.yield(value) }
            } catch {
                continuation.finish(throwing: error)
            }
        }
        let observation = DatabaseRegionObservation(tracking: tables.map { Table($0) })
            .start(in: pool, onError: { continuation.finish(throwing: $0) }, onChange: publish)
        // The first value is read on the writer too, after the observation started: serialized
        // with the writes, it can never arrive after a newer one.
        pool.asyncWriteWithoutTransaction { db in publish(db) }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }

    /// Boards of every active round, for the TV screen.
    public func activeRoundBoards() async throws -> [RoundBoard] {
        try await pool.read { db in
            let ids = try String.fetchAll(
                db, sql: "SELECT id FROM rounds WHERE status = 'active' AND archived = 0 ORDER BY COALESCE(startedAt, createdAt), id")
            return try ids.compactMap(UUID.init(text:)).map { try self.board($0, db) }
        }
    }

    /// Snapshots of every active round.
    public func activeRoundSnapshots() async throws -> [RoundSnapshot] {
        try await pool.read { db in
            let ids = try String.fetchAll(
                db, sql: "SELECT id FROM rounds WHERE status = 'active' AND archived = 0 ORDER BY COALESCE(startedAt, createdAt), id")
            return try ids.compactMap(UUID.init(text:)).map { try Self.snapshot($0, db) }
        }
    }
}
