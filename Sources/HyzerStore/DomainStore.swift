import Foundation
import GRDB
import HyzerCore
import Synchronization

/// The user's data in `domain.sqlite`: players, courses, rounds and score events. It owns
/// the file's single `DatabasePool`; every method is one transaction, and nothing else in
/// Hyzer writes SQL for this file.
public final class DomainStore: Sendable {
    let pool: DatabasePool
    public let deviceID: UUID
    let clock: Mutex<HybridClock>
    let now: @Sendable () -> Date
    /// Where local changes wait for the cloud: in this file, written by each local write in
    /// its own transaction (`write(queueing:_:)`).
    public let outbox: Outbox
    let boards = BoardCache()
    let roundDigests = RoundDigests()
    /// Moves at each commit that changed the user's data: the key of cached page renders.
    let changes = ChangeCounter(ignoring: ["outbox"])
    /// Commits that change a player (a role, a name, disabled, merged): kept identities follow it.
    let playerChanges = ChangeCounter(watching: ["players"])
    /// Commits that change the club settings (whether leaderboards are public, among others).
    let settingsChanges = ChangeCounter(watching: ["club_settings"])
    let identities: KeptValues<UUID, Identity?>
    /// The merged identities (alias → canonical player), one value under the key `.all`.
    let keptAliases: KeptValues<AliasMap, [String: String]>
    enum AliasMap: Hashable, Sendable { case all }
    /// Commits that may change what a board shows besides its scores (a round's players or
    /// status, a course, an event, a signature, a name): while it stands still, a board read
    /// skips checking the round's setup stamp. A new score (its event, its round's version)
    /// does not move it.
    let setupChanges = ChangeCounter(ignoring: ["outbox", "score_events"], exceptUpdatesOf: ["version"])
    /// The club settings, one value under the key `.club` (see `clubSettings()`).
    let keptSettings: KeptValues<ClubSettingsKey, ClubSettingsPayload>
    enum ClubSettingsKey: Hashable, Sendable { case club }
    /// The club's ratings (derived from every round), one value under `.club`, kept until the
    /// user's data changes (see `clubRatings()`).
    let keptRatings: KeptValues<ClubSettingsKey, ClubRatings>
    /// Score submissions from concurrent requests, committed together.
    let scores = GroupCommit<PendingScore, RecordedScore>()

    /// Fault tests only (see `CrashPoints`).
    let crashPoints: CrashPoints?

    init(path: String, deviceID: UUID, now: @escaping @Sendable () -> Date, crashPoints: CrashPoints? = nil) throws {
        self.crashPoints = crashPoints
        pool = try StoreFile.open(path: path, migrator: DomainMigrations.migrator, durable: true)
        self.deviceID = deviceID
        self.now = now
        identities = KeptValues(following: playerChanges, capacity: 4096)
        keptAliases = KeptValues(following: playerChanges, capacity: 1)
        keptRatings = KeptValues(following: changes, capacity: 1)
        keptSettings = KeptValues(following: settingsChanges, capacity: 1)
        outbox = Outbox(pool: pool)
        let (changes, playerChanges, setupChanges, settingsChanges) = (changes, playerChanges, setupChanges, settingsChanges)
        pool.writeWithoutTransaction { db in
            db.add(transactionObserver: changes, extent: .databaseLifetime)
            db.add(transactionObserver: playerChanges, extent: .databaseLifetime)
            db.add(transactionObserver: settingsChanges, extent: .databaseLifetime)
            db.add(transactionObserver: setupChanges, extent: .databaseLifetime)
        }
        let latest = try pool.read { db in try Self.latestClockReading(db) }
        clock = Mutex(HybridClock(deviceID: deviceID, latest: latest))
    }

    /// The newest HLC stored anywhere, so a restart never issues a reading older than one
    /// already written, even if the wall clock went back.
    static func latestClockReading(_ db: Database) throws -> HLC? {
        let sql = (VersionedTables.all.map { "SELECT MAX(\($0.version)) FROM \($0.table)" } + ["SELECT MAX(removedAt) FROM tombstones"]).joined(
            separator: " UNION ALL ")
        let texts = try String?.fetchAll(db, sql: sql)
        return texts.compactMap { $0.flatMap(HLC.init) }.max()
    }

    func tick() -> HLC {
        let wall = now().millisecondsSince1970
        return clock.withLock { $0.tick(wallMillis: wall) }
    }

    /// How many committed transactions changed the user's data since the store was opened.
    /// Read it before reading what a cached render shows: a render is good while it holds.
    public var changeCount: UInt64 { changes.value }

    public var appliedMigrations: [String] {
        get throws { try pool.read { db in try DomainMigrations.migrator.appliedMigrations(db) } }
    }

    // MARK: Scores

    public struct RecordedScore: Sendable {
        public var event: ScoreEvent
        public var duplicate: Bool
        /// The round's version once the write (and the rest of its batch) is stored.
        public var version: Int
    }

    /// Checks a submission against the round as stored and records it. Nothing is written
    /// when a rule refuses it. Throws `ScoreRejection` or `StoreError.notFound`.
    /// `reporter` is who entered it (nil only for local tools): an athlete may record only
    /// their own scores (`ScorePermission`), and the event names them in `reportedBy`.
    ///
    /// Submissions that arrive while another commit is under way are committed together, in
    /// arrival order, in one transaction with their outbox entries (`GroupCommit`): one fsync
    /// for the lot, one version change per round, and so one standings render and one live
    /// frame. Each is answered once that transaction is on disk.
    public func recordScore(_ submission: ScoreSubmission, in roundID: UUID, by reporter: Identity? = nil) async throws -> RecordedScore {
        try await scores.submit(PendingScore(submission: submission, roundID: roundID, reporter: reporter)) { batch, done in
            self.pool.asyncWrite({ db in try self.commitScores(batch, db) }) { _, outcome in
                if case .success = outcome { self.crashPoints?.pass(.scoreCommitted) }
                done(outcome)
            }
        }
    }
}

extension DomainStore {
    /// One write transaction that also queues, in the same transaction, the records it
    /// changed (`records` of its result) for the cloud.
    func write<T: Sendable>(
        queueing records: @escaping @Sendable (T) -> [(RecordType, String, HLC)], _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try await pool.write { db in
            let value = try body(db)
            try Outbox.enqueue(records(value), db)
            return value
        }
    }
}
