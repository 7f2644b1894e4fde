import Foundation
import GRDB
import HyzerCore
import Synchronization

extension DomainStore {
    /// Every round's version, delivered again after each committed transaction that changes
    /// one. Every writer bumps a round's version in the transaction that changes it (a local
    /// score, a sync apply, an edit), so this is the one place that learns of them all.
    /// `wanted`: asked before each read; while it says no, commits cost nothing here.
    public func roundVersions(while wanted: @escaping @Sendable () -> Bool = { true }) -> some AsyncSequence<[UUID: Int], any Error>
        & Sendable
    {
        changes(of: ["rounds"], while: wanted) { db in
            var versions: [UUID: Int] = [:]
            let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT id, version FROM rounds"))
            while let row = try rows.next() {
                if let id = UUID(text: row["id"]) { versions[id] = row["version"] }
            }
            return versions
        }
    }

    /// `fetch` now and after commits that changed `tables`, each value once (repeats are
    /// dropped), the newest kept for a slow reader.
    ///
    /// A region observation only marks that a commit happened: GRDB calls it on the writer,
    /// so a read there would hold up the next commit (the scores of every scorer waiting for
    /// it) by a read of every round. The read runs on a reader instead, one at a time, after
    /// the commit (so it sees it) and once for however many commits came meanwhile; each read
    /// starts after the previous one, so a value never arrives after a newer one. While
    /// `wanted` says no (nobody follows what it is for), nothing is read.
    func changes<Value: Equatable & Sendable>(
        of tables: [String], while wanted: @escaping @Sendable () -> Bool = { true }, _ fetch: @escaping @Sendable (Database) throws -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (commits, committed) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let observation = DatabaseRegionObservation(tracking: tables.map { Table($0) })
            .start(in: pool, onError: { continuation.finish(throwing: $0) }, onChange: { _ in committed.yield() })
        // The first value: read after the observation started, so no commit falls between.
        committed.yield()
        let reader = Task { [pool] in
            var last: Value?
            for await _ in commits {
                guard wanted() else {
                    // Whoever wants it next gets a value even if it equals the last one sent.
                    last = nil
                    continue
                }
                do {
                    let value = try await pool.read(fetch)
                    if value != last { continuation.yield(value) }
                    last = value
                } catch is CancellationError {
                    return
                } catch {
                    continuation.finish(throwing: error)
                    return
                }
            }
        }
        continuation.onTermination = { _ in
            observation.cancel()
            committed.finish()
            reader.cancel()
        }
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
