import Foundation
import GRDB
import HyzerCore
import Testing

@testable import HyzerStore
@testable import HyzerSync

@Suite struct EmbeddedCloudTests {
    @Test func twoDevicesConverge() async throws {
        let scratch = try Scratch()
        try await Scenarios.twoDevicesConverge(EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path), zone: "club")
    }

    @Test func scorekeepersCrossCheckAcrossDevices() async throws {
        let scratch = try Scratch()
        try await Scenarios.scorekeepersCrossCheckAcrossDevices(
            EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path), zone: "club")
    }

    @Test func offlineDevicesConverge() async throws {
        let scratch = try Scratch()
        let cloud = FaultyCloud(EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path))
        try await Scenarios.offlineDevicesConverge(cloud, zone: "club", goDown: { cloud.unreachable = true }, comeBack: { cloud.unreachable = false })
    }

    @Test func concurrentPushesSaveEachRecordOnce() async throws {
        let scratch = try Scratch()
        let cloud = FaultyCloud(EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path))
        let device = try await Device("a", cloud: cloud, root: scratch.url)
        let (round, players) = try await device.setUpRound()
        for hole in 1...9 { try await device.score(round, players[0], hole: hole, 3) }
        await device.engine.resolveAccount()
        cloud.saveDelay = .milliseconds(200)
        async let first = device.engine.pushPending()
        async let second = device.engine.pushPending()
        let pushed = await first + second
        #expect(pushed == 1 + 3 + 1 + 1 + 9)
        #expect(cloud.saves.values.allSatisfy { $0 == 1 }, "\(cloud.saves.filter { $0.value > 1 })")
        #expect(cloud.saves.count == pushed)
    }

    @Test func aPushWhoseSyncedMarkWasLostIsPushedAgainWithoutDuplicates() async throws {
        let scratch = try Scratch()
        let cloudPath = scratch.url.appendingPathComponent("cloud.sqlite").path
        let cloud = EmbeddedCloud(path: cloudPath)
        let device = try await Device("a", cloud: cloud, root: scratch.url)
        let (round, players) = try await device.setUpRound()
        try await device.score(round, players[0], hole: 1, 3)

        // The cloud commit succeeds, then the process dies before marking the rows synced.
        let (claimed, records) = try await device.stores.outbox.claimDueRecords(limit: 100, now: Date())
        _ = try await cloud.save(records, zone: "club")
        let afterFirst = try await cloud.changes(zone: "club", after: 0, limit: 1000)
        #expect(try await device.stores.outbox.counts().inFlight == claimed.count)

        // Restart: in-flight rows return to pending and are pushed again, idempotently.
        let restarted = try await Device("a", cloud: cloud, root: scratch.url)
        try await restarted.stores.reconcile()
        #expect(try await restarted.stores.outbox.counts().pending == claimed.count)
        await restarted.engine.resolveAccount()
        #expect(await restarted.engine.pushPending() == claimed.count)
        let afterSecond = try await cloud.changes(zone: "club", after: 0, limit: 1000)
        #expect(afterSecond.records.count == afterFirst.records.count)
        #expect(afterSecond.token == afterFirst.token, "an unchanged record takes no new change number")
        #expect(try await restarted.stores.outbox.counts().synced == claimed.count)
    }

    @Test func aLocalWriteQueuesItselfAndOneMissingFromTheOutboxIsQueuedOnStart() async throws {
        let scratch = try Scratch()
        let stores = try await Stores(directory: scratch.url)
        let player = try await stores.domain.createPlayer(PlayerDraft(displayName: "Ann", handle: "ann").validated(), by: nil)
        #expect(try await stores.outbox.entry(type: .player, id: player.id.uuidString.lowercased())?.status == .pending, "queued by its own write")
        #expect(try await stores.reconcile() == 0)
        // A write whose entry is missing, as one made before the outbox moved into domain.sqlite could be.
        let file = try DatabaseQueue(path: scratch.url.appendingPathComponent("domain.sqlite").path)
        try await file.write { db in try db.execute(sql: "DELETE FROM outbox WHERE recordType = 'player'") }
        try file.close()
        #expect(try await stores.outbox.entry(type: .player, id: player.id.uuidString.lowercased()) == nil)
        let queued = try await stores.reconcile()
        #expect(queued == 1)
        #expect(try await stores.outbox.entry(type: .player, id: player.id.uuidString.lowercased())?.status == .pending)
        #expect(try await stores.reconcile() == 0)
    }

    @Test func clubSettingsMergeFieldByFieldIntoOneRecord() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url)
        _ = try await a.domain.updateClubSettings(clubName: "Maple Hill DGC")
        _ = try await b.domain.updateClubSettings(tvPageSeconds: 20)
        await a.sync()
        await b.sync()
        await a.sync()
        for device in [a, b] {
            let settings = try await device.domain.clubSettings()
            #expect(settings.clubName.value == "Maple Hill DGC")
            #expect(settings.tvPageSeconds.value == 20)
        }
        let page = try await cloud.changes(zone: "club", after: 0, limit: 100)
        #expect(page.records.filter { $0.type == .clubSettings }.count == 1)
    }

    @Test func receivedClocksAdvanceTheLocalClock() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url)
        let (round, players) = try await a.setUpRound()
        await a.sync()
        await b.sync()
        // A device whose clock runs an hour fast writes a score.
        let fast = HLC(wallMillis: Date().addingTimeInterval(3600).millisecondsSince1970, counter: 0, deviceID: UUID())
        let event = ScoreEvent(
            id: UUID(), roundID: round, playerID: players[1], hole: 2, strokes: .count(3), deviceID: fast.deviceID, recordedAt: fast)
        _ = try await cloud.save(
            [
                CloudRecord(
                    type: .scoreEvent, id: event.id.uuidString.lowercased(), hlc: fast, payload: try RecordCoding.encode(ScoreEventPayload(event)))
            ], zone: "club")
        await b.sync()
        let local = try await b.score(round, players[1], hole: 2, 4, correcting: event.id)
        #expect(local.recordedAt > fast, "a correction made after receiving the event orders after it")
        #expect(try await b.standings(round).entries.first { $0.playerID == players[1] }?.strokes == 4)
    }

    @Test func aFailedRecordIsRetriedWithBackoff() async throws {
        let scratch = try Scratch()
        let cloud = RejectingCloud(EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path))
        let device = try await Device("a", cloud: cloud, root: scratch.url)
        _ = try await device.domain.createPlayer(PlayerDraft(displayName: "Ann", handle: "ann").validated(), by: nil)
        await device.engine.resolveAccount()
        cloud.rejecting = true
        let failedAt = Date()
        await device.engine.pushPending()
        let failed = try await device.stores.outbox.failedEntries()
        #expect(failed.count == 2)
        // The first retry waits 1 s scaled by a jitter of 0.5…1: at least half a second.
        #expect(
            failed.allSatisfy {
                $0.attempts == 1 && $0.lastError == "rejected for the test" && ($0.nextAttemptAt ?? .distantPast) >= failedAt.addingTimeInterval(0.5)
            })
        if case .error = await device.engine.status().state {} else { Issue.record("state should be error") }
        // Not due yet: nothing is pushed (checked only while that is still true, so a slow
        // machine cannot make it fail).
        cloud.rejecting = false
        let due = failed.compactMap(\.nextAttemptAt).min() ?? .distantPast
        let pushedEarly = await device.engine.pushPending()
        if Date() < due { #expect(pushedEarly == 0) }
        try await device.engine.retryFailed()
        #expect(await device.engine.pushPending() + pushedEarly == 2)
        #expect(try await device.stores.outbox.counts().failed == 0)
    }

    @Test func noCloudMeansNoAccount() async throws {
        let scratch = try Scratch()
        let stores = try await Stores(directory: scratch.url)
        let engine = SyncEngine(stores: stores, cloud: nil, logger: .init(label: "test"))
        #expect(await engine.status().account == .noAccount)
        #expect(await engine.pushPending() == 0)
    }

    /// Device "a" with a round scored over nine holes and pushed: 27 events, more than a few
    /// pages for a device that pulls seven at a time.
    static func scoredRound(_ cloud: any CloudDatabase, root: URL) async throws -> (Device, UUID) {
        let a = try await Device("a", cloud: cloud, root: root)
        let (round, players) = try await a.setUpRound()
        for hole in 1...9 {
            for player in players { try await a.score(round, player, hole: hole, 3) }
        }
        await a.sync()
        return (a, round)
    }

    static var sevenAPage: SyncEngine.Configuration {
        var configuration = SyncEngine.Configuration()
        configuration.pullPage = 7
        return configuration
    }

    @Test func initialPullOfManyEvents() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let (a, round) = try await Self.scoredRound(cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url, configuration: Self.sevenAPage)
        await b.sync()
        #expect(try await b.events(round).count == 27)
        #expect(await b.engine.status().initialSync == nil, "progress is cleared when the first sync ends")
        #expect(try await b.standings(round) == a.standings(round))
    }

    /// A first sync of more than a page writes with bulk tuning (bigger cache, rarer
    /// checkpoints), and the writer is back to everyday tuning when it ends, even by failing.
    @Test func aFirstSyncTunesTheWriterForBulkUntilItEnds() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let (a, round) = try await Self.scoredRound(cloud, root: scratch.url)
        let pulling = PageWatchingCloud(cloud)
        let b = try await Device("b", cloud: pulling, root: scratch.url, configuration: Self.sevenAPage)
        let everyday = try await b.domain.writerTuning()
        pulling.onPage = { page in
            let tuning = try await b.domain.writerTuning()
            #expect(
                tuning.cacheKiB > everyday.cacheKiB && tuning.checkpointPages > everyday.checkpointPages, "page \(page) is written with bulk tuning")
            if page == 2 { throw CloudError.failed("the cloud went away mid-pull") }
        }
        await b.sync()
        #expect(pulling.pages >= 3)
        #expect(try await b.domain.writerTuning() == everyday, "a failed first sync restores the tuning")

        pulling.onPage = nil
        await b.sync()
        #expect(try await b.events(round).count == 27)
        #expect(try await b.domain.writerTuning() == everyday)
        #expect(try await b.standings(round) == a.standings(round))
    }
}

/// Runs a check before each page it hands out (and may throw there), to look at a device
/// while a pull is under way and to cut a pull short.
final class PageWatchingCloud: CloudDatabase, @unchecked Sendable {
    let base: any CloudDatabase
    private let lock = NSLock()
    private var _onPage: (@Sendable (Int) async throws -> Void)?
    private var _pages = 0
    init(_ base: any CloudDatabase) { self.base = base }
    var onPage: (@Sendable (Int) async throws -> Void)? {
        get { lock.withLock { _onPage } }
        set { lock.withLock { _onPage = newValue } }
    }
    var pages: Int { lock.withLock { _pages } }
    var displayName: String { base.displayName }
    func resolveAccount() async -> AccountStatus { await base.resolveAccount() }
    func save(_ records: [CloudRecord], zone: String) async throws -> Int { try await base.save(records, zone: zone) }
    func changes(zone: String, after token: Int64, limit: Int) async throws -> ChangePage {
        let (page, check) = lock.withLock { () -> (Int, (@Sendable (Int) async throws -> Void)?) in
            defer { _pages += 1 }
            return (_pages, _onPage)
        }
        try await check?(page)
        return try await base.changes(zone: zone, after: token, limit: limit)
    }
    func changeCount(zone: String, after token: Int64) async throws -> Int { try await base.changeCount(zone: zone, after: token) }
    func hints(zone: String) -> AsyncStream<CloudSignal> { base.hints(zone: zone) }
    func claimIdentity(handle: String, proposed recordName: String, zone: String) async throws -> String {
        try await base.claimIdentity(handle: handle, proposed: recordName, zone: zone)
    }
}

/// Refuses saves on demand with a non-network error, to exercise failure and backoff.
final class RejectingCloud: CloudDatabase, @unchecked Sendable {
    let base: any CloudDatabase
    private let lock = NSLock()
    private var _rejecting = false
    init(_ base: any CloudDatabase) { self.base = base }
    var rejecting: Bool {
        get { lock.withLock { _rejecting } }
        set { lock.withLock { _rejecting = newValue } }
    }
    var displayName: String { base.displayName }
    func resolveAccount() async -> AccountStatus { await base.resolveAccount() }
    func save(_ records: [CloudRecord], zone: String) async throws -> Int {
        if rejecting { throw CloudError.failed("rejected for the test") }
        return try await base.save(records, zone: zone)
    }
    func changes(zone: String, after token: Int64, limit: Int) async throws -> ChangePage {
        try await base.changes(zone: zone, after: token, limit: limit)
    }
    func changeCount(zone: String, after token: Int64) async throws -> Int { try await base.changeCount(zone: zone, after: token) }
    func hints(zone: String) -> AsyncStream<CloudSignal> { base.hints(zone: zone) }

    func claimIdentity(handle: String, proposed recordName: String, zone: String) async throws -> String {
        try await base.claimIdentity(handle: handle, proposed: recordName, zone: zone)
    }
}

@Suite struct DamagedStoreTests {
    @Test func aDamagedSyncFileIsMovedAsideAndTheOutboxIsKept() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let device = try await Device("a", cloud: cloud, root: scratch.url)
        let (round, players) = try await device.setUpRound()
        try await device.score(round, players[0], hole: 1, 3)
        let directory = device.directory
        let syncFile = directory.appendingPathComponent("sync.sqlite")
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: syncFile.path + "-wal"))
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: syncFile.path + "-shm"))
        try Data(repeating: 0x42, count: 8192).write(to: syncFile)

        let reopened = try await Device("a", cloud: cloud, root: scratch.url)
        #expect(reopened.domain.deviceID == device.domain.deviceID, "the rebuilt file keeps the device's id")
        let aside = try #require(reopened.stores.damagedOperationalFile)
        #expect(FileManager.default.fileExists(atPath: aside.path), "the damaged file is kept")
        #expect(try await reopened.domain.snapshot(of: round).events.count == 1, "no score is lost")
        #expect(
            try await reopened.stores.outbox.counts().pending == 1 + 3 + 1 + 1 + 1,
            "settings, players, course, round and the score still wait in domain.sqlite")
        #expect(try await reopened.stores.reconcile() == 0, "nothing was lost with sync.sqlite")
        await reopened.sync()
        #expect(try await reopened.stores.outbox.counts().pending == 0)
        #expect(try await cloud.changeCount(zone: "club", after: 0) == 7)
    }

    @Test func aDamagedEmbeddedCloudIsShownAsDamagedAndScoringGoesOn() async throws {
        let scratch = try Scratch()
        let path = scratch.url.appendingPathComponent("cloud.sqlite")
        try Data(repeating: 0x42, count: 8192).write(to: path)
        let device = try await Device("a", cloud: EmbeddedCloud(path: path.path), root: scratch.url)
        let (round, players) = try await device.setUpRound()
        await device.sync()
        let status = await device.engine.status()
        #expect(status.account == .damaged, "not \"unreachable\": the network is fine, the file is not")
        #expect(status.state.message?.contains("damaged") == true)
        try await device.score(round, players[0], hole: 1, 3)
        #expect(try await device.stores.outbox.counts().failed == 0, "no record is blamed for the cloud's damage")
        #expect(try await device.stores.outbox.counts().pending > 0, "everything waits for a repaired cloud")

        // The operator puts a good file in place: the device sends everything it has.
        try FileManager.default.removeItem(at: path)
        let repaired = try await Device("a", cloud: EmbeddedCloud(path: path.path), root: scratch.url)
        await repaired.sync()
        #expect(await repaired.engine.status().account == .available)
        #expect(try await repaired.stores.outbox.counts().pending == 0)
    }

    @Test func aDeletedSyncFileGivesTheDeviceItsIdBack() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let device = try await Device("a", cloud: cloud, root: scratch.url)
        let id = device.domain.deviceID
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: device.directory.appendingPathComponent("sync.sqlite").path + suffix)
        }
        let reopened = try await Device("a", cloud: cloud, root: scratch.url)
        #expect(reopened.domain.deviceID == id)
    }
}

extension DomainStore {
    /// The writer's checkpoint interval (pages) and cache size (KiB) as they stand.
    func writerTuning() async throws -> (checkpointPages: Int, cacheKiB: Int) {
        try await pool.writeWithoutTransaction { db in
            let checkpoint = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? 0
            let cache = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0
            return (checkpoint, cache < 0 ? -cache : cache * Int(try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096) / 1024)
        }
    }
}
