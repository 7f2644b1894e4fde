import Foundation
import GRDB
import HyzerCore
import Testing

@testable import HyzerStore

@Suite struct DomainStoreTests {
    /// A store with one 9-hole course, three players and an active round.
    struct Fixture {
        let stores: Stores
        let course: Course
        let players: [Player]
        let round: Round
        var store: DomainStore { stores.domain }

        init(directory: URL) async throws {
            stores = try await Stores(directory: directory)
            course = try await stores.domain.createCourse(CourseDraft(name: "Pine Loop", holeCount: "9").validated())
            var players: [Player] = []
            for handle in ["ann", "ben", "cleo"] {
                players.append(
                    try await stores.domain.createPlayer(PlayerDraft(displayName: handle.capitalized, handle: handle).validated(), by: nil))
            }
            self.players = players
            round = try await stores.domain.createRound(
                RoundDraft.Valid(name: "League", courseID: course.id, playerIDs: players.map(\.id), startNow: true))
        }
    }

    @Test func migratesAnEmptyFileAndReopensIt() async throws {
        let directory = try TemporaryDirectory()
        let first = try await Stores(directory: directory.url)
        #expect(
            try first.domain.appliedMigrations == [
                "v1-domain", "v2-sync", "v3-accounts", "v4-leagues", "v5-outbox", "v6-editing", "v7-player-division", "v8-seasons", "v9-checkins",
                "v10-frozen-handicaps", "v11-checkin-open", "v12-league-edits",
                "v13-fee-payments", "v14-entered-rating", "v15-player-pdga-email", "v16-event-played-on", "v17-sync-quarantine", "v18-bag-tags",
                "v19-tag-challenges", "v20-money", "v21-formats", "v22-brackets", "v23-putting", "v24-mulligans",
            ])
        let device = first.domain.deviceID
        let reopened = try await Stores(directory: directory.url)
        #expect(reopened.domain.deviceID == device)
        #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("domain.sqlite").path))
        #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("sync.sqlite").path))
        let mode = try await reopened.domain.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test func recordsScoresAndBumpsTheRoundVersionOnlyOnChange() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let start = try await fixture.store.snapshot(of: fixture.round.id).version
        let id = UUID()
        let submission = ScoreSubmission(id: id, playerID: fixture.players[0].id, hole: 1, strokes: .count(2))
        let first = try await fixture.store.recordScore(submission, in: fixture.round.id)
        #expect(!first.duplicate)
        #expect(first.version == start + 1)
        let again = try await fixture.store.recordScore(submission, in: fixture.round.id)
        #expect(again.duplicate)
        #expect(again.event == first.event)
        let snapshot = try await fixture.store.snapshot(of: fixture.round.id)
        #expect(snapshot.version == start + 1)
        #expect(snapshot.events == [first.event])
        #expect(snapshot.board.standings.entries.first?.toPar == -1)
    }

    /// A page of events from the cloud, some already here and more than one statement's
    /// worth: exactly the new ones are stored and counted, and a page of copies moves nothing.
    @Test func aPageStoresExactlyTheEventsNotHereYet() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let round = fixture.round.id
        let device = UUID()
        let before = try await fixture.store.snapshot(of: round).events.count
        let events = (0..<150).map { index in
            ScoreEvent(
                id: UUID(), roundID: round, playerID: fixture.players[index % fixture.players.count].id, hole: index % 18 + 1,
                strokes: .count(3 + index % 2), deviceID: device, recordedAt: HLC(wallMillis: Int64(1_000 + index), counter: 0, deviceID: device))
        }
        let first = try await fixture.store.applyRemote(events[20..<60].map { .record($0) })
        #expect(first.applied == 40 && first.rounds == [round])
        let version = try await fixture.store.snapshot(of: round).version

        let page = try await fixture.store.applyRemote(events.map { .record($0) })
        #expect(page.applied == 110)
        #expect(page.rounds == [round])
        #expect(try await fixture.store.snapshot(of: round).events.count == before + 150)
        #expect(try await fixture.store.snapshot(of: round).version == version + 1)

        let copies = try await fixture.store.applyRemote(events.map { .record($0) })
        #expect(copies.applied == 0 && copies.rounds.isEmpty)
        #expect(try await fixture.store.snapshot(of: round).version == version + 1)
    }

    /// Every field of an event stored from a page (bound to SQLite column by column, 64 events
    /// to a statement) reads back as it was sent.
    @Test func eventsStoredFromAPageReadBackFieldByField() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let round = fixture.round.id
        let device = UUID()
        let players = fixture.players.map(\.id)
        let events = (0..<150).map { index in
            let dnf = index % 7 == 0
            return ScoreEvent(
                id: UUID(), roundID: round, playerID: players[index % players.count], hole: index % 18 + 1,
                strokes: dnf ? .dnf : .count(1 + index % 9), reportedBy: index % 3 == 0 ? nil : players[(index + 1) % players.count],
                deviceID: device, supersedes: index % 4 == 0 ? nil : UUID(), resolves: (0..<(index % 3)).map { _ in UUID() },
                recordedAt: HLC(wallMillis: Int64(5_000 + index), counter: UInt32(index % 5), deviceID: device),
                penalties: dnf ? 0 : index % 3)
        }
        #expect(try await fixture.store.applyRemote(events.map { .record($0) }).applied == 150)
        let stored = Dictionary(uniqueKeysWithValues: try await fixture.store.snapshot(of: round).events.map { ($0.id, $0) })
        for event in events {
            #expect(stored[event.id] == event)
        }
    }

    /// The cached board (only new events read and folded in) always equals a board built from
    /// a fresh read, through scores, corrections, events applied by sync and a restore.
    @Test func theCachedBoardEqualsAFreshOne() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let round = fixture.round.id
        func expectFresh(_ note: String) async throws {
            let cached = try await fixture.store.board(of: round)
            let fresh = try await fixture.store.snapshot(of: round).board
            #expect(cached.standings == fresh.standings, "\(note)")
            #expect(Set(cached.snapshot.events.map(\.id)) == Set(fresh.snapshot.events.map(\.id)), "\(note)")
            #expect(cached.version == fresh.version, "\(note)")
        }
        try await expectFresh("empty")
        var last: [UUID: UUID] = [:]
        for hole in 1...4 {
            for player in fixture.players {
                last[player.id] = try await fixture.store.recordScore(ScoreSubmission(playerID: player.id, hole: hole, strokes: .count(3)), in: round)
                    .event.id
            }
            try await expectFresh("hole \(hole)")
        }
        let corrected = try #require(last[fixture.players[0].id])
        _ = try await fixture.store.recordScore(
            ScoreSubmission(playerID: fixture.players[0].id, hole: 4, strokes: .count(2), supersedes: corrected), in: round)
        try await expectFresh("a correction")
        // Another device corrected the same score apart: a conflict arrives through sync.
        let remote = ScoreEvent(
            id: UUID(), roundID: round, playerID: fixture.players[0].id, hole: 4, strokes: .count(5), deviceID: UUID(),
            supersedes: corrected, recordedAt: HLC(wallMillis: Date().millisecondsSince1970 + 5, counter: 0, deviceID: UUID()))
        _ = try await fixture.store.applyRemote([.record(remote)])
        try await expectFresh("a remote conflict")
        #expect(try await fixture.store.board(of: round).standings.conflicts.count == 1)

        // A player renamed on another device: the cached board shows the new name.
        var renamed = fixture.players[2]
        renamed.displayName = "Cleo Renamed"
        renamed.updatedAt = HLC(wallMillis: Date().millisecondsSince1970 + 10, counter: 0, deviceID: UUID())
        _ = try await fixture.store.applyRemote([.record(renamed)])
        try await expectFresh("a rename")
        #expect(try await fixture.store.board(of: round).leaderboard.rows.contains { $0.displayName == "Cleo Renamed" })

        // A restore replaces every event: the board follows the restored data, not the cache.
        let backup = try await fixture.stores.createBackup()
        _ = try await fixture.store.recordScore(ScoreSubmission(playerID: fixture.players[1].id, hole: 5, strokes: .count(4)), in: round)
        try await expectFresh("before the restore")
        _ = try await fixture.stores.restore(from: fixture.stores.backups.archive(backup.id))
        try await expectFresh("after the restore")
        #expect(try await fixture.store.board(of: round).standings.entries.first { $0.playerID == fixture.players[1].id }?.thru == 4)

        // The same person created on another device (same handle, a smaller id) arrives: the
        // round's player becomes an alias, and the board shows their scores under the other id.
        var twin = fixture.players[1]
        twin.id = try #require(UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
        twin.updatedAt = HLC(wallMillis: Date().millisecondsSince1970 + 20, counter: 0, deviceID: UUID())
        _ = try await fixture.store.applyRemote([.record(twin)])
        try await expectFresh("a merged identity")
        #expect(try await fixture.store.board(of: round).standings.entries.contains { $0.playerID == twin.id })
    }

    @Test func aRefusedScoreWritesNothing() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let before = try await fixture.store.snapshot(of: fixture.round.id)
        await #expect(throws: ScoreRejection.self) {
            try await fixture.store.recordScore(ScoreSubmission(playerID: fixture.players[0].id, hole: 10, strokes: .count(3)), in: fixture.round.id)
        }
        await #expect(throws: StoreError.notFound("Round")) {
            try await fixture.store.recordScore(ScoreSubmission(playerID: fixture.players[0].id, hole: 1, strokes: .count(3)), in: UUID())
        }
        let after = try await fixture.store.snapshot(of: fixture.round.id)
        #expect(after.events.isEmpty)
        #expect(after.version == before.version)
    }

    @Test func scoreEventsCannotBeUpdatedOrDeleted() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let recorded = try await fixture.store.recordScore(
            ScoreSubmission(playerID: fixture.players[0].id, hole: 1, strokes: .count(3)), in: fixture.round.id)
        await #expect(throws: DatabaseError.self) {
            try await fixture.store.pool.write { db in try db.execute(sql: "UPDATE score_events SET strokes = 1") }
        }
        await #expect(throws: DatabaseError.self) {
            try await fixture.store.pool.write { db in try db.execute(sql: "DELETE FROM score_events") }
        }
        let events = try await fixture.store.snapshot(of: fixture.round.id).events
        #expect(events == [recorded.event])
    }

    @Test func aTransactionThatFailsHalfwayLeavesNothing() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        // The ninth hole breaks the schema's par check after eight holes were inserted.
        let holes = (1...9).map { Hole(number: $0, par: $0 == 9 ? 12 : 3) }
        await #expect(throws: DatabaseError.self) {
            try await stores.domain.createCourse(CourseDraft.Valid(name: "Broken", holes: holes))
        }
        let counts = try await stores.domain.pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM courses"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM course_holes"))
        }
        #expect(counts.0 == 0)
        #expect(counts.1 == 0)
    }

    @Test func handlesAreUnique() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        _ = try await stores.domain.createPlayer(PlayerDraft(displayName: "Ann", handle: "ann").validated(), by: nil)
        do {
            _ = try await stores.domain.createPlayer(PlayerDraft(displayName: "Another Ann", handle: "@ANN").validated(), by: nil)
            Issue.record("expected the handle to be refused")
        } catch let errors as FieldErrors {
            #expect(errors["handle"] == "The handle @ann is already taken.")
        }
        #expect(try await stores.domain.players().count == 1)
    }

    @Test func roundsOnlyMoveForward() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let completed = try await fixture.store.setStatus(of: fixture.round.id, to: .completed)
        #expect(completed.round.status == .completed)
        #expect(completed.round.completedAt != nil)
        await #expect(throws: ScoreRejection.self) {
            try await fixture.store.setStatus(of: fixture.round.id, to: .active)
        }
        await #expect(throws: ScoreRejection.self) {
            try await fixture.store.recordScore(ScoreSubmission(playerID: fixture.players[0].id, hole: 1, strokes: .count(3)), in: fixture.round.id)
        }
    }

    @Test func theClockNeverGoesBackAcrossARestart() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await Fixture(directory: directory.url)
        let first = try await fixture.store.recordScore(
            ScoreSubmission(playerID: fixture.players[0].id, hole: 1, strokes: .count(3)), in: fixture.round.id)
        // Reopen with a wall clock an hour behind.
        let reopened = try await Stores(directory: directory.url, now: { Date().addingTimeInterval(-3600) })
        let second = try await reopened.domain.recordScore(
            ScoreSubmission(playerID: fixture.players[1].id, hole: 1, strokes: .count(3)), in: fixture.round.id)
        #expect(second.event.recordedAt > first.event.recordedAt)
    }

    @Test func demoSeedRunsOnceAndGivesALeaderboard() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        let roundID = try #require(try await stores.domain.seedDemoIfEmpty())
        #expect(try await stores.domain.seedDemoIfEmpty() == nil)
        let snapshot = try await stores.domain.snapshot(of: roundID)
        #expect(snapshot.round.status == .active)
        #expect(snapshot.board.standings.entries.count == 6)
        #expect(snapshot.board.standings.entries.allSatisfy { $0.thru > 0 })
        #expect(try await stores.domain.roundSummaries().map(\.id) == [roundID])
    }
}
