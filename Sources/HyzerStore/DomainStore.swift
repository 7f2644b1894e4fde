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

    // MARK: Players

    /// A player without an account, added by `actor` (nil: the command line, the demo seed),
    /// who may add only the roles they could grant.
    public func createPlayer(_ valid: PlayerDraft.Valid, by actor: UUID?) async throws -> Player {
        try await createAccount(valid, passwordHash: nil, actor: actor)
    }

    /// Players to choose from: one per person (aliases are left out).
    public func players() async throws -> [Player] {
        try await pool.read { db in
            try PlayerRecord.filter(PlayerRecord.Columns.aliasOf == nil && PlayerRecord.Columns.archived == false)
                .order(PlayerRecord.Columns.displayName.collating(.localizedCaseInsensitiveCompare)).fetchAll(db).map { try $0.domain() }
        }
    }

    // MARK: Courses

    public func createCourse(_ valid: CourseDraft.Valid) async throws -> Course {
        let course = Course(id: UUID(), name: valid.name, holes: valid.holes, createdAt: now(), updatedAt: tick())
        return try await write(queueing: { [(.course, $0.id.text, $0.updatedAt)] }) { db in
            try Self.saveCourse(course, db)
            return course
        }
    }

    public func courses() async throws -> [Course] {
        try await pool.read { db in
            try CourseRecord.filter(CourseRecord.Columns.archived == false).order(
                CourseRecord.Columns.name.collating(.localizedCaseInsensitiveCompare)
            ).fetchAll(db).map {
                try Self.course($0, db)
            }
        }
    }

    /// One course, archived or not.
    public func course(_ id: UUID) async throws -> Course {
        try await pool.read { db in
            guard let record = try CourseRecord.fetchOne(db, key: id.text) else { throw StoreError.notFound("Course") }
            return try Self.course(record, db)
        }
    }

    static func course(_ record: CourseRecord, _ db: Database) throws -> Course {
        let holes = try HoleRecord.filter(HoleRecord.Columns.courseID == record.id).order(HoleRecord.Columns.number).fetchAll(db)
        var course = Course(
            id: try StoredValue.uuid(record.id, "courses.id"), name: record.name,
            holes: holes.map { Hole(number: $0.number, par: $0.par, distance: $0.distance) },
            createdAt: record.createdAt, updatedAt: try StoredValue.hlc(record.updatedAt, "courses.updatedAt")
        )
        course.archived = record.archived
        return course
    }

    // MARK: Rounds

    public func createRound(_ valid: RoundDraft.Valid, createdBy: UUID? = nil) async throws -> Round {
        let created = now()
        let round = Round(
            id: UUID(), name: valid.name, courseID: valid.courseID, playerIDs: valid.playerIDs,
            status: valid.startNow ? .active : .scheduled, startedAt: valid.startNow ? created : nil,
            createdBy: createdBy, createdAt: created, updatedAt: tick(),
            eventID: valid.eventID, divisions: valid.divisions
        )
        return try await write(queueing: { [(.round, $0.id.text, $0.updatedAt)] }) { db in
            try RoundRecord(round, version: 1).insert(db)
            try RoundRecord.writePlayers(of: round, db)
            try self.freezeHandicaps(of: round.id, db)
            return round
        }
    }

    /// Checks a draft (form or API) against the courses, players and events that exist, and
    /// creates the round; a blank name becomes the course's name and the day. Throws `FieldErrors`.
    public func createRound(_ draft: RoundDraft, createdBy: UUID? = nil) async throws -> Round {
        let courses = try await courses()
        let players = try await players()
        let events = try await events()
        let names = Dictionary(courses.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let today = now().formatted(.dateTime.weekday(.wide).day().month(.abbreviated))
        let byID = Dictionary(events.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let valid = try draft.validated(knownCourses: Set(courses.map(\.id)), knownPlayers: Set(players.map(\.id)), events: byID) { course, event in
            // A round of a dated night is named by the night's day, not the day it was set up.
            "\(names[course] ?? "Round") — \(event?.playedOn.flatMap(Format.day) ?? today)"
        }
        return try await createRound(valid, createdBy: createdBy)
    }

    /// Starts or completes a round. Only forward moves are allowed.
    public func setStatus(of roundID: UUID, to status: RoundStatus) async throws -> RoundSnapshot {
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { [(.round, $0.round.id.text, $0.round.updatedAt)] }) { db in
            guard var record = try RoundRecord.fetchOne(db, key: roundID.text) else { throw StoreError.notFound("Round") }
            let current: RoundStatus = try StoredValue.raw(record.status, "rounds.status", of: record.id)
            guard current.canMove(to: status) else {
                throw ScoreRejection.conflict(field: "status", message: "A \(current.rawValue) round cannot become \(status.rawValue).")
            }
            record.status = status.rawValue
            if status == .active { record.startedAt = moment }
            if status == .completed { record.completedAt = moment }
            record.updatedAt = stamp.description
            record.version += 1
            try record.update(db)
            try self.freezeHandicaps(of: roundID, db)
            return try Self.snapshot(roundID, db)
        }
    }

    /// Rounds a list shows at once: the home page and `GET /api/v1/rounds` page through the rest.
    public static let roundsPerPage = 50

    /// One page of the rounds (1: live rounds first, then the newest), and whether another
    /// page follows.
    public func roundSummaries(page: Int, perPage: Int = roundsPerPage) async throws -> (summaries: [RoundSummary], hasMore: Bool) {
        let rows = try await roundSummaries(limit: perPage + 1, offset: (max(page, 1) - 1) * perPage)
        return (Array(rows.prefix(perPage)), rows.count > perPage)
    }

    /// Whether a round (not removed) is stored.
    public func roundExists(_ id: UUID) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM rounds WHERE id = ? AND archived = 0)", arguments: [id.text]) ?? false
        }
    }

    public func roundSummaries(limit: Int = roundsPerPage, offset: Int = 0) async throws -> [RoundSummary] {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT r.id, r.name, r.status, r.startedAt, r.createdAt, c.name AS courseName,
                           (SELECT COUNT(*) FROM round_players p WHERE p.roundID = r.id) AS playerCount
                    FROM rounds r JOIN courses c ON c.id = r.courseID
                    WHERE r.archived = 0
                    ORDER BY CASE r.status WHEN 'active' THEN 0 ELSE 1 END, COALESCE(r.startedAt, r.createdAt) DESC, r.id
                    LIMIT ? OFFSET ?
                    """, arguments: [limit, offset])
            return try rows.map { row in
                RoundSummary(
                    id: try StoredValue.uuid(row["id"], "rounds.id"), name: row["name"], courseName: row["courseName"],
                    status: try StoredValue.raw(row["status"], "rounds.status", of: row["id"]), startedAt: row["startedAt"],
                    createdAt: row["createdAt"], playerCount: row["playerCount"]
                )
            }
        }
    }

    /// A round with its course, players and events, read in one transaction.
    public func snapshot(of roundID: UUID) async throws -> RoundSnapshot {
        try await pool.read { db in try Self.snapshot(roundID, db) }
    }

    /// `events`: the round's events when the caller already has them (`board(of:)`).
    static func snapshot(_ roundID: UUID, _ db: Database, events known: [ScoreEvent]? = nil) throws -> RoundSnapshot {
        guard let record = try RoundRecord.fetchOne(db, key: roundID.text) else { throw StoreError.notFound("Round") }
        guard let courseRecord = try CourseRecord.fetchOne(db, key: record.courseID) else { throw StoreError.notFound("Course") }
        let course = try course(courseRecord, db)
        // A merged identity counts once, under its canonical player, with every score of its
        // aliases (events stay as recorded; only how they are read changes).
        let aliases = try aliasMap(db)
        var seen = Set<String>()
        let playerIDs = try RoundRecord.playerIDs(of: record.id, db).map { aliases[$0] ?? $0 }.filter { seen.insert($0).inserted }
        let players = try PlayerRecord.filter(keys: playerIDs).fetchAll(db).map { try $0.domain() }
        let events = try known ?? Self.events(of: roundID, after: 0, aliases: aliases, db).map(\.event)
        var divisions: [String: String] = [:]
        for (id, division) in try RoundRecord.divisions(of: record.id, db) { divisions[aliases[id] ?? id] = division }
        let withdrawn = Set(try RoundRecord.withdrawn(of: record.id, db).map { aliases[$0] ?? $0 })
        var round = try record.domain(playerIDs: playerIDs, divisions: divisions, withdrawn: withdrawn)
        round.cards = round.cards.map { card in
            var card = card
            card.playerIDs = card.playerIDs.map { aliases[$0.text].flatMap(UUID.init(text:)) ?? $0 }
            return card
        }
        let event = try record.eventID.flatMap { try EventRecord.fetchOne(db, key: $0) }?.domain()
        let signatures = try SignatureRecord.filter(SignatureRecord.Columns.roundID == record.id).fetchAll(db).map { row in
            var signature = try row.domain()
            if let canonical = aliases[row.playerID].flatMap(UUID.init(text:)) { signature.playerID = canonical }
            return signature
        }
        var snapshot = RoundSnapshot(
            round: round, course: course, players: players, events: events, version: record.version, event: event, signatures: signatures)
        try addReporterNames(&snapshot, from: events, db)
        if let eventID = record.eventID {
            let inRound = Set(playerIDs)
            for row in try FrozenHandicapRecord.filter(FrozenHandicapRecord.Columns.eventID == eventID).fetchAll(db) {
                let frozen = try row.domain()
                let player = aliases[frozen.playerID.text].flatMap(UUID.init(text:)) ?? frozen.playerID
                guard let handicap = frozen.handicap, inRound.contains(player.text) else { continue }
                snapshot.handicaps[player] = SeasonHandicaps.strokes(handicap, holes: course.holes.count)
            }
            if let seasonID = event?.seasonID, let season = try SeasonRecord.fetchOne(db, key: seasonID.text)?.domain() {
                snapshot.netUnplaced = season.points.placesBy == .net && season.handicap?.unhandicapped == .unplaced
            }
        }
        return snapshot
    }

    /// Names of those who entered `events` without playing in the round, once each.
    static func addReporterNames(_ snapshot: inout RoundSnapshot, from events: some Sequence<ScoreEvent>, _ db: Database) throws {
        let known = Set(snapshot.round.playerIDs).union(snapshot.reporterNames.keys)
        let reporters = Set(events.compactMap(\.reportedBy)).subtracting(known)
        guard !reporters.isEmpty else { return }
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, displayName FROM players WHERE id IN (\(databaseQuestionMarks(count: reporters.count)))",
            arguments: StatementArguments(reporters.map(\.text)))
        for row in rows { if let id = UUID(text: row["id"]) { snapshot.reporterNames[id] = row["displayName"] } }
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
