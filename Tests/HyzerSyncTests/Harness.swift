import Foundation
import Glibc
import HyzerCore
import HyzerStore
import Logging
import Testing

@testable import HyzerSync

/// A device: its own data folder (real SQLite files) and a sync engine on a shared cloud.
/// Tests drive the engine's steps directly (`sync()`), so every assertion follows a known step.
struct Device {
    let name: String
    let directory: URL
    let stores: Stores
    let engine: SyncEngine

    /// `clockOffset`: how far this device's wall clock is off (an injected clock, for skew).
    init(_ name: String, cloud: any CloudDatabase, root: URL, configuration: SyncEngine.Configuration = .init(), clockOffset: TimeInterval = 0)
        async throws
    {
        self.name = name
        directory = root.appendingPathComponent(name)
        stores = try await Stores(directory: directory, cloudConfigured: true, now: { Date().addingTimeInterval(clockOffset) })
        var logger = Logger(label: "test.\(name)")
        logger.logLevel = .warning
        engine = SyncEngine(stores: stores, cloud: cloud, configuration: configuration, logger: logger)
    }

    var domain: DomainStore { stores.domain }

    /// Check the account, push everything due, pull everything new.
    func sync() async {
        await engine.resolveAccount()
        await engine.pushPending()
        await engine.pullChanges()
    }

    /// `sync()` until it succeeds: every local change pushed, a pull without error. Where a
    /// scenario's cloud is up, a sync that failed on a loaded machine (a connect that timed out
    /// while the whole suite runs on two cores) is tried again instead of failing the scenario.
    func settle(attempts: Int = 20) async {
        for _ in 0..<attempts {
            await sync()
            let status = await engine.status()
            let counts = status.counts
            if status.state == .idle, counts.pending + counts.inFlight + counts.failed == 0 { return }
            try? await engine.retryFailed()
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    func standings(_ round: UUID) async throws -> Standings {
        try await domain.snapshot(of: round).board.standings
    }

    func events(_ round: UUID) async throws -> [ScoreEvent] {
        try await domain.snapshot(of: round).events
    }

    /// A 9-hole course, three players and an active round, created on this device.
    func setUpRound(handles: [String] = ["ann", "ben", "cleo"], eventID: UUID? = nil, division: String? = nil) async throws -> (
        round: UUID, players: [UUID]
    ) {
        let course = try await domain.createCourse(CourseDraft(name: "Pine Loop", holeCount: "9").validated())
        var players: [UUID] = []
        for handle in handles {
            players.append(try await domain.createPlayer(PlayerDraft(displayName: handle.capitalized, handle: handle).validated(), by: nil).id)
        }
        let round = try await domain.createRound(
            RoundDraft.Valid(
                name: "League", courseID: course.id, playerIDs: players, startNow: true, eventID: eventID,
                divisions: division.map { name in Dictionary(uniqueKeysWithValues: players.map { ($0, name) }) } ?? [:]))
        return (round.id, players)
    }

    @discardableResult
    func score(_ round: UUID, _ player: UUID, hole: Int, _ strokes: Int, correcting: UUID? = nil) async throws -> ScoreEvent {
        try await domain.recordScore(ScoreSubmission(playerID: player, hole: hole, strokes: .count(strokes), supersedes: correcting), in: round).event
    }
}

/// A temporary folder per test.
final class Scratch: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The throwaway PostgreSQL server that `make test` starts (scripts/with-postgres). Without
/// it these tests fail, never skip: a sync engine untested against PostgreSQL is not done.
enum TestPostgres {
    static func address() throws -> CloudAddress.PostgresAddress {
        guard let url = ProcessInfo.processInfo.environment["HYZER_TEST_PG_URL"] else {
            throw HarnessError("HYZER_TEST_PG_URL is not set: run the tests with `make test` (scripts/with-postgres starts PostgreSQL)")
        }
        guard case .postgres(let address) = try CloudAddress.parse(url) else { throw HarnessError("not a postgres URL: \(url)") }
        return address
    }

    /// Runs pg_ctl through posix_spawn and waitpid: Foundation's Process can wait forever
    /// on `pg_ctl start`, whose daemon outlives it.
    static func control(_ verb: String) throws {
        guard let ctl = ProcessInfo.processInfo.environment["HYZER_TEST_PG_CTL"] else { throw HarnessError("HYZER_TEST_PG_CTL is not set") }
        let command = "\(ctl) \(verb) >/dev/null 2>&1 </dev/null"
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0 else { throw HarnessError("could not run pg_ctl") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard status == 0 else { throw HarnessError("pg_ctl \(verb) failed (\(status))") }
    }

    static func stop() throws { try control("stop -m fast") }
    static func start() throws { try control("start") }

    /// A cloud on the test server, in a zone of its own so tests never see each other's data.
    static func cloud(logger: Logger = Logger(label: "test.postgres")) throws -> PostgresCloud {
        PostgresCloud(address: try address(), logger: logger, connectTimeout: .seconds(2), operationTimeout: .seconds(5))
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs the body with the PostgreSQL client's connection pool running, as the app's
/// service group would.
func withPostgres<T: Sendable>(_ cloud: PostgresCloud, _ body: @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await cloud.run() }
        defer { group.cancelAll() }
        return try await body()
    }
}

/// Fault injection around a real cloud: unreachable on demand, or slow. Used only where a
/// real part cannot produce the fault on demand; PostgreSQL tests stop the real server.
final class FaultyCloud: CloudDatabase, @unchecked Sendable {
    let base: any CloudDatabase
    private let lock = NSLock()
    private var _unreachable = false
    private var _saveDelay: Duration = .zero
    private var _saves: [String: Int] = [:]

    init(_ base: any CloudDatabase) { self.base = base }

    var unreachable: Bool {
        get { lock.withLock { _unreachable } }
        set { lock.withLock { _unreachable = newValue } }
    }

    var saveDelay: Duration {
        get { lock.withLock { _saveDelay } }
        set { lock.withLock { _saveDelay = newValue } }
    }

    /// How many times each record was handed to `save`.
    var saves: [String: Int] { lock.withLock { _saves } }

    var displayName: String { "faulty \(base.displayName)" }

    func resolveAccount() async -> AccountStatus {
        unreachable ? .temporarilyUnavailable : await base.resolveAccount()
    }

    func save(_ records: [CloudRecord], zone: String) async throws -> Int {
        lock.withLock { for record in records { _saves[record.id, default: 0] += 1 } }
        if saveDelay > .zero { try await Task.sleep(for: saveDelay) }
        if unreachable { throw CloudError.unreachable("injected") }
        return try await base.save(records, zone: zone)
    }

    func changes(zone: String, after token: Int64, limit: Int) async throws -> ChangePage {
        if unreachable { throw CloudError.unreachable("injected") }
        return try await base.changes(zone: zone, after: token, limit: limit)
    }

    func changeCount(zone: String, after token: Int64) async throws -> Int {
        if unreachable { throw CloudError.unreachable("injected") }
        return try await base.changeCount(zone: zone, after: token)
    }

    func hints(zone: String) -> AsyncStream<CloudSignal> { base.hints(zone: zone) }

    func claimIdentity(handle: String, proposed recordName: String, zone: String) async throws -> String {
        if unreachable { throw CloudError.unreachable("test") }
        return try await base.claimIdentity(handle: handle, proposed: recordName, zone: zone)
    }
}

/// Waits until this machine's wall clock is past `hlc`, so that a write made next is newer
/// than the one stamped `hlc` on any device of this process (last writer wins by clock).
func waitForTheClock(toPass hlc: HLC) async throws {
    while Int64(Date().timeIntervalSince1970 * 1000) <= hlc.wallMillis { try await Task.sleep(for: .milliseconds(1)) }
}

/// Polls `condition` until it holds or `seconds` pass; true if it held.
func eventually(_ seconds: Double, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}

extension Device {
    /// Everything a device shows of a round: its events, standings and open conflicts.
    func view(_ round: UUID) async throws -> DeviceView {
        let board = try await domain.snapshot(of: round).board
        return DeviceView(
            events: Set(board.snapshot.events.map(\.id)), standings: board.standings,
            conflicts: board.scores.conflicts.map { "\($0.0.playerID.lowercasedText)/\($0.0.hole): \($0.1.leaves.map(\.id.lowercasedText).sorted())" }
                .sorted()
        )
    }
}

struct DeviceView: Equatable {
    var events: Set<UUID>
    var standings: Standings
    var conflicts: [String]
}
