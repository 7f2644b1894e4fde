import Foundation
import GRDB
import HyzerCore
import Synchronization
import Testing

@testable import HyzerStore

private func attempt<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}

@Suite struct GroupCommitTests {
    /// Gates a commit until the test opens it, so a batch's make-up is known.
    final class Gate: Sendable {
        private let opened = Mutex(false)
        func open() { opened.withLock { $0 = true } }
        func wait() async {
            while !opened.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
        }
    }

    @Test func callersThatArriveDuringACommitShareTheNextOneAndEachGetsItsOwnAnswer() async throws {
        let commits = GroupCommit<Int, String>()
        let batches = Mutex<[[Int]]>([])
        let gate = Gate()
        let commit: @Sendable ([Int]) async throws -> [Result<String, any Error>] = { batch in
            batches.withLock { $0.append(batch) }
            if batch == [0] { await gate.wait() }
            return batch.map { $0 == 7 ? .failure(ScoreRejection.notYours) : .success("answer \($0)") }
        }
        try await withThrowingTaskGroup(of: (Int, Result<String, any Error>).self) { group in
            group.addTask { (0, await attempt { try await commits.submit(0, commit: commit) }) }
            // The first caller leads alone and is held in its commit; nine more queue behind it.
            while batches.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(1)) }
            for item in 1...9 {
                group.addTask { (item, await attempt { try await commits.submit(item, commit: commit) }) }
            }
            while commits.waiting < 9 { try await Task.sleep(for: .milliseconds(1)) }
            gate.open()
            var answers: [Int: Result<String, any Error>] = [:]
            for try await (item, result) in group { answers[item] = result }
            for item in 0...9 where item != 7 {
                #expect(try answers[item]?.get() == "answer \(item)")
            }
            #expect(throws: ScoreRejection.notYours) { try answers[7]?.get() }
        }
        let made = batches.withLock { $0 }
        #expect(made.count == 2, "one commit for the first caller, one for the nine that waited")
        #expect(made.first == [0])
        #expect(Set(made.last ?? []) == Set(1...9))
        #expect(commits.counts.batches == 2 && commits.counts.items == 10)
        #expect(commits.waiting == 0)
    }

    /// The leader commits for everyone: its own request being cancelled (its client gone)
    /// must not fail the others' scores.
    @Test func aCancelledLeaderStillCommitsForTheOthers() async throws {
        let commits = GroupCommit<Int, Int>()
        let gate = Gate()
        let started = Mutex(false)
        let commit: @Sendable ([Int]) async throws -> [Result<Int, any Error>] = { batch in
            started.withLock { $0 = true }
            if batch.contains(0) { await gate.wait() }
            try Task.checkCancellation()
            return batch.map { .success($0) }
        }
        let leader = Task { try await commits.submit(0, commit: commit) }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        let follower = Task { try await commits.submit(1, commit: commit) }
        while commits.waiting < 1 { try await Task.sleep(for: .milliseconds(1)) }
        leader.cancel()
        gate.open()
        #expect(try await leader.value == 0, "the transaction ran to its end")
        #expect(try await follower.value == 1)
    }

    @Test func aFailedCommitFailsEveryCallerInItAndTheNextCommitGoesOn() async throws {
        struct DiskFull: Error, Equatable {}
        let commits = GroupCommit<Int, Int>()
        await #expect(throws: DiskFull()) {
            try await commits.submit(1) { _ in throw DiskFull() }
        }
        #expect(try await commits.submit(2) { batch in batch.map { .success($0 * 10) } } == 20)
    }

    @Test func concurrentScoresCommitTogetherEachWithItsOutboxEntry() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        let domain = stores.domain
        let course = try await domain.createCourse(CourseDraft(name: "Pine Loop", holeCount: "18").validated())
        let players = try await domain.importPlayers(
            (0..<32).map { try PlayerDraft(displayName: "Player \($0)", handle: "player\($0)").validated() }, actor: nil
        ).created
        let round = try await domain.createRound(RoundDraft.Valid(name: "League", courseID: course.id, playerIDs: players.map(\.id), startNow: true))
        let start = try await domain.snapshot(of: round.id).version
        let pendingBefore = try await stores.outbox.counts().pending

        // 32 scorers × 9 holes, all at once; hole 10 of player 0 is refused (the course has 18
        // holes, so hole 19 stands in for a bad submission) without taking the others down.
        let results = await withTaskGroup(of: Result<DomainStore.RecordedScore, any Error>.self) { group in
            for player in players {
                group.addTask {
                    var last: Result<DomainStore.RecordedScore, any Error> = .failure(StoreError.notFound("nothing"))
                    for hole in 1...9 {
                        last = await attempt {
                            try await domain.recordScore(ScoreSubmission(playerID: player.id, hole: hole, strokes: .count(3)), in: round.id)
                        }
                        if case .failure = last { return last }
                    }
                    if player.id == players[0].id {
                        return await attempt {
                            try await domain.recordScore(ScoreSubmission(playerID: player.id, hole: 19, strokes: .count(3)), in: round.id)
                        }
                    }
                    return last
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { (try? $0.get()) == nil }.count == 1, "only the bad submission is refused")
        let snapshot = try await domain.snapshot(of: round.id)
        #expect(snapshot.events.count == 32 * 9)
        #expect(snapshot.version == start + 32 * 9, "the version counts every recorded score")
        #expect(try await stores.outbox.counts().pending == pendingBefore + 32 * 9)
        let (batches, items) = domain.scores.counts
        #expect(items == 32 * 9 + 1)
        #expect(batches < items, "concurrent scores shared commits (\(batches) for \(items))")
        // Every score event has its outbox entry: the two are written in one transaction.
        let unqueued = try await domain.pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM score_events WHERE id NOT IN (SELECT recordID FROM outbox WHERE recordType = 'scoreEvent')")
        }
        #expect(unqueued == 0)
    }

    /// An outbox entry this version cannot read (a type from a newer version, a damaged
    /// clock) is parked as failed with a reason naming it, neither skipped unseen on every
    /// push nor holding back the entries after it.
    @Test func anUnreadableOutboxEntryIsParkedWithItsReason() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        let ann = try await stores.domain.createPlayer(PlayerDraft(displayName: "Ann", handle: "ann").validated(), by: nil)
        let bob = try await stores.domain.createPlayer(PlayerDraft(displayName: "Bob", handle: "bob").validated(), by: nil)
        try await stores.outbox.pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE outbox SET recordType = 'hologram' WHERE recordID = ?", arguments: [ann.id.text])
            try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
        }
        let (entries, records) = try await stores.outbox.claimDueRecords(limit: 10, now: Date())
        #expect(records.map(\.id).contains(bob.id.text), "the push goes on")
        #expect(!entries.map(\.id).contains(ann.id.text))
        let parked = try stores.outbox.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT status, lastError FROM outbox WHERE recordID = ?", arguments: [ann.id.text])
        }
        #expect(parked?["status"] == "failed")
        let reason: String? = parked?["lastError"]
        #expect(reason?.contains("hologram") == true && reason?.contains(ann.id.text) == true)
        let again = try await stores.outbox.claimDueRecords(limit: 10, now: Date().addingTimeInterval(3600))
        #expect(!again.entries.map(\.id).contains(ann.id.text), "not claimed again on every push")
        #expect(try await stores.outbox.counts().failed == 1)
    }

    /// A record that cannot be read (a damaged row) is marked failed and left out of the
    /// push; the records queued after it still go.
    @Test func anUnreadableRecordDoesNotHoldBackThePush() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        let ann = try await stores.domain.createPlayer(PlayerDraft(displayName: "Ann", handle: "ann").validated(), by: nil)
        let bob = try await stores.domain.createPlayer(PlayerDraft(displayName: "Bob", handle: "bob").validated(), by: nil)
        try await stores.domain.pool.write { db in
            try db.execute(sql: "UPDATE players SET updatedAt = 'not a clock' WHERE id = ?", arguments: [ann.id.text])
        }
        let (entries, records) = try await stores.outbox.claimDueRecords(limit: 10, now: Date())
        #expect(records.map(\.id).contains(bob.id.text), "the push goes on")
        #expect(!entries.map(\.id).contains(ann.id.text))
        let failed = try await stores.outbox.failedEntries()
        #expect(failed.map(\.id) == [ann.id.text])
        #expect(failed.first?.lastError?.contains("could not be read") == true)
    }

    /// Outbox bookkeeping commits without an fsync; user data keeps synchronous = FULL.
    @Test func outboxBookkeepingLeavesTheWriterDurable() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        func synchronous() async throws -> Int? {
            try await stores.domain.pool.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        }
        #expect(try await synchronous() == 2)
        _ = try await stores.domain.createPlayer(PlayerDraft(displayName: "Ann", handle: "ann").validated(), by: nil)
        let claimed = try await stores.outbox.claimDueRecords(limit: 10, now: Date()).entries
        #expect(!claimed.isEmpty)
        #expect(try await synchronous() == 2, "FULL again after a claim")
        try await stores.outbox.markSynced(claimed)
        #expect(try await synchronous() == 2, "FULL again after a mark")
        #expect(try await stores.outbox.counts().synced == claimed.count)
    }
}
