import Foundation
import GRDB
import HyzerCore
import Testing

@testable import HyzerStore

/// What the store keeps so that a page request costs no database write and little reading.
@Suite struct RequestPathCostTests {
    /// Cached renders are keyed by the change count: the user's data moves it, the outbox's
    /// own bookkeeping (a push) does not, and a write has moved it by the time it returns.
    @Test func theChangeCountMovesWithTheDataNotWithPushes() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        let start = stores.domain.changeCount
        _ = try await stores.domain.createPlayer(PlayerDraft(displayName: "Ann", handle: "ann").validated(), by: nil)
        let afterWrite = stores.domain.changeCount
        #expect(afterWrite > start, "moved before the write returned")
        let claimed = try await stores.outbox.claimDueRecords(limit: 10, now: Date()).entries
        try await stores.outbox.markSynced(claimed)
        #expect(stores.domain.changeCount == afterWrite, "a push changes nothing a page shows")
        _ = try await stores.domain.updateClubSettings(clubName: "Maple Hill")
        #expect(stores.domain.changeCount > afterWrite)
        #expect(try await stores.domain.clubSettings().clubName.value == "Maple Hill", "the kept settings follow the count")
    }

    /// A write queues its records after the outbox's highest sequence, and the outbox keeps
    /// one entry per record ever written (synced ones too): that read is one index lookup, not
    /// a scan of every record the club has.
    @Test func queueingAWriteFindsTheLastSequenceByIndex() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        let plan = try await stores.domain.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT COALESCE(MAX(sequence), 0) FROM outbox").map { $0["detail"] as String? ?? "" }
                .joined(separator: "; ")
        }
        #expect(plan.contains("USING COVERING INDEX outbox_by_sequence") && !plan.contains("SCAN outbox"), "\(plan)")
    }

    /// Who a token or session is, asked on every signed-in request, is kept — and is never
    /// served after a change that affects it: the next request sees a new role, a disabled
    /// account or a revoked token, while other players' writes (scores) keep it.
    @Test func keptIdentitiesFollowEveryChangeToThem() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        let coach = try await stores.domain.createPlayer(PlayerDraft(displayName: "Cory", handle: "cory").validated(), by: nil)
        let token = try await stores.operational.issueToken(for: coach.id, name: "phone")
        let other = try await stores.operational.issueToken(for: coach.id, name: "tablet")
        #expect(try await stores.domain.identity(of: coach.id)?.role == .athlete)
        #expect(try await stores.operational.tokenOwner(token) == coach.id)
        #expect(stores.operational.tokenOwners.count == 1, "kept")

        _ = try await stores.domain.changeRole(of: coach.id, to: .coach, actor: nil)
        #expect(try await stores.domain.identity(of: coach.id)?.role == .coach, "a new role at the next request")
        _ = try await stores.domain.createPlayer(PlayerDraft(displayName: "Ann", handle: "ann").validated(), by: nil)
        _ = try await stores.domain.setDisabled(coach.id, true, actor: nil)
        #expect(try await stores.domain.identity(of: coach.id) == nil, "a disabled account is nobody at once")

        let id = try #require(try await stores.operational.tokens().first { $0.name == "phone" }?.id)
        try await stores.operational.revokeToken(id)
        #expect(try await stores.operational.tokenOwner(token) == nil, "a revoked token is refused at once")
        #expect(try await stores.operational.tokenOwner(other) == coach.id, "other tokens still work")
    }

    /// A busy API client takes no write per request: a token's use is noted to the minute.
    @Test func aTokensUseIsNotedOnceAMinute() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        let player = try await stores.domain.createPlayer(PlayerDraft(displayName: "Ann", handle: "ann").validated(), by: nil)
        let token = try await stores.operational.issueToken(for: player.id, name: "test")
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        func lastUsed() async throws -> Date? { try await stores.operational.tokens().first?.lastUsedAt }
        #expect(try await stores.operational.tokenOwner(token, now: t0) == player.id)
        #expect(try await lastUsed() == t0)
        #expect(try await stores.operational.tokenOwner(token, now: t0.addingTimeInterval(30)) == player.id)
        #expect(try await lastUsed() == t0, "within the minute: read only")
        _ = try await stores.operational.tokenOwner(token, now: t0.addingTimeInterval(61))
        #expect(try await lastUsed() == t0.addingTimeInterval(61))
        #expect(stores.operational.tokenOwners.count == 1, "noting a use keeps the kept owner")
        _ = try await stores.operational.tokenOwner(token, now: t0.addingTimeInterval(90))
        #expect(try await lastUsed() == t0.addingTimeInterval(61), "the kept owner knows its last use: no write within the minute")
        #expect(try await stores.operational.tokenOwner("hyz_wrong", now: t0) == nil)
    }
}
