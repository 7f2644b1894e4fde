import Foundation
import GRDB
import HyzerCore

extension DomainStore {
    /// Every round's version, delivered again after each committed transaction that changes
    /// one. Every writer bumps a round's version in the transaction that changes it (a local
    /// score today, a sync apply tomorrow), so this is the one place that learns of them all.
    public func roundVersions() -> some AsyncSequence<[UUID: Int], any Error> & Sendable {
        ValueObservation
            .tracking { db in
                var versions: [UUID: Int] = [:]
                let rows = try Row.fetchCursor(db, sql: "SELECT id, version FROM rounds")
                while let row = try rows.next() {
                    if let id = UUID(text: row["id"]) { versions[id] = row["version"] }
                }
                return versions
            }
            .removeDuplicates()
            .values(in: pool, bufferingPolicy: .bufferingNewest(1))
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
