import Foundation
import GRDB
import GRDBSQLite
import HyzerCore

// One record type per table. Ids are stored as lower-case UUID text (never GRDB's blob
// default) so that raw SQL, the sqlite3 shell and other devices all see the same values.

extension UUID {
    var text: String { lowercasedText }
}

enum StoredValue {
    static func uuid(_ text: String, _ column: String) throws -> UUID {
        guard let value = UUID(text: text) else { throw StoreError.corrupt("\(column) is not a UUID: \(text)") }
        return value
    }

    static func hlc(_ text: String, _ column: String) throws -> HLC {
        guard let value = HLC(text) else { throw StoreError.corrupt("\(column) is not an HLC: \(text)") }
        return value
    }

    /// An enum stored as its raw text: a value this version does not know is an error naming
    /// the record, never a default that would hand out a role or a status nobody chose.
    static func raw<T: RawRepresentable>(_ text: String, _ column: String, of record: String) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: text) else { throw StoreError.corrupt("\(column) of \(record) is not a known value: \(text)") }
        return value
    }

    /// A JSON column: unreadable JSON is an error naming the record, never an empty value.
    static func json<T: Decodable>(_ text: String, _ type: T.Type, _ column: String, of record: String) throws -> T {
        do {
            return try RecordCoding.decode(type, Data(text.utf8))
        } catch {
            throw StoreError.corrupt("\(column) of \(record) is not readable JSON: \(error)")
        }
    }
}

struct PlayerRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "players"
    var id: String
    var displayName: String
    var handle: String
    var role: String
    var cloudRecordName: String?
    var createdAt: Date
    var updatedAt: String
    var passwordHash: String?
    var disabled: Bool
    var originDeviceID: String?
    /// Derived on this device (see `IdentityMerge`), never synced: the canonical player.
    var aliasOf: String?
    var archived: Bool
    var division: String
    var enteredRating: Int?
    var pdgaNumber: Int?
    var email: String?

    init(_ player: Player) {
        enteredRating = player.enteredRating
        pdgaNumber = player.pdgaNumber
        email = player.email
        archived = player.archived
        division = player.division
        id = player.id.text
        displayName = player.displayName
        handle = player.handle.value
        role = player.role.rawValue
        cloudRecordName = player.cloudRecordName
        createdAt = player.createdAt
        updatedAt = player.updatedAt.description
        passwordHash = player.passwordHash
        disabled = player.disabled
        originDeviceID = player.originDeviceID?.text
        aliasOf = nil
    }

    /// Column by column rather than Codable's way: every board reads its whole field.
    init(row: Row) throws {
        id = row[Columns.id]
        displayName = row[Columns.displayName]
        handle = row[Columns.handle]
        role = row[Columns.role]
        cloudRecordName = row[Columns.cloudRecordName]
        createdAt = row[Columns.createdAt]
        updatedAt = row[Columns.updatedAt]
        passwordHash = row[Columns.passwordHash]
        disabled = row[Columns.disabled]
        originDeviceID = row[Columns.originDeviceID]
        aliasOf = row[Columns.aliasOf]
        archived = row[Columns.archived]
        division = row[Columns.division]
        enteredRating = row[Columns.enteredRating]
        pdgaNumber = row[Columns.pdgaNumber]
        email = row[Columns.email]
    }

    func domain() throws -> Player {
        var player = Player(
            id: try StoredValue.uuid(id, "players.id"), displayName: displayName, handle: Handle(trusted: handle),
            role: try StoredValue.raw(role, "players.role", of: id), cloudRecordName: cloudRecordName, createdAt: createdAt,
            updatedAt: try StoredValue.hlc(updatedAt, "players.updatedAt"),
            passwordHash: passwordHash, disabled: disabled, originDeviceID: originDeviceID.flatMap(UUID.init(text:))
        )
        player.archived = archived
        player.division = division
        player.enteredRating = enteredRating
        player.pdgaNumber = pdgaNumber
        player.email = email
        return player
    }
}

struct CourseRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "courses"
    var id: String
    var name: String
    var createdAt: Date
    var updatedAt: String
    var archived = false
}

struct HoleRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "course_holes"
    var courseID: String
    var number: Int
    var par: Int
    var distance: Int?
}

struct RoundRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "rounds"
    var id: String
    var name: String
    var courseID: String
    var status: String
    var startedAt: Date?
    var completedAt: Date?
    var createdBy: String?
    var createdAt: Date
    var updatedAt: String
    /// Local bookkeeping, never synced: the round's change counter.
    var version: Int
    var eventID: String?
    /// JSON: a short list that is only ever read whole.
    var cards: String
    var archived: Bool

    /// Throws when the cards cannot be encoded: an empty list stored instead would lose them.
    init(_ round: Round, version: Int) throws {
        archived = round.archived
        eventID = round.eventID?.text
        cards = String(decoding: try RecordCoding.encode(round.cards), as: UTF8.self)
        id = round.id.text
        name = round.name
        courseID = round.courseID.text
        status = round.status.rawValue
        startedAt = round.startedAt
        completedAt = round.completedAt
        createdBy = round.createdBy?.text
        createdAt = round.createdAt
        updatedAt = round.updatedAt.description
        self.version = version
    }

    /// The round with the given players (as stored, or as an alias map reads them).
    func domain(playerIDs: [String], divisions: [String: String] = [:], withdrawn: Set<String> = []) throws -> Round {
        var round = Round(
            id: try StoredValue.uuid(id, "rounds.id"), name: name, courseID: try StoredValue.uuid(courseID, "rounds.courseID"),
            playerIDs: try playerIDs.map { try StoredValue.uuid($0, "round_players.playerID") },
            status: try StoredValue.raw(status, "rounds.status", of: id), startedAt: startedAt, completedAt: completedAt,
            createdBy: try createdBy.map { try StoredValue.uuid($0, "rounds.createdBy") },
            createdAt: createdAt, updatedAt: try StoredValue.hlc(updatedAt, "rounds.updatedAt"),
            eventID: try eventID.map { try StoredValue.uuid($0, "rounds.eventID") },
            divisions: divisions.reduce(into: [:]) { result, pair in if let id = UUID(text: pair.key), !pair.value.isEmpty { result[id] = pair.value }
            },
            cards: try StoredValue.json(cards, [Card].self, "rounds.cards", of: id)
        )
        round.archived = archived
        round.withdrawn = Set(withdrawn.compactMap(UUID.init(text:)))
        return round
    }

    static func playerIDs(of roundID: String, _ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT playerID FROM round_players WHERE roundID = ? ORDER BY position", arguments: [roundID])
    }

    static func divisions(of roundID: String, _ db: Database) throws -> [String: String] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT playerID, division FROM round_players WHERE roundID = ? AND division != ''", arguments: [roundID])
        return Dictionary(rows.map { ($0["playerID"], $0["division"]) }, uniquingKeysWith: { first, _ in first })
    }

    static func withdrawn(of roundID: String, _ db: Database) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT playerID FROM round_players WHERE roundID = ? AND withdrawn", arguments: [roundID]))
    }

    /// The round as stored, with its players, divisions and withdrawals.
    static func round(_ id: String, _ db: Database) throws -> Round? {
        guard let record = try fetchOne(db, key: id) else { return nil }
        return try record.domain(playerIDs: try playerIDs(of: id, db), divisions: try divisions(of: id, db), withdrawn: try withdrawn(of: id, db))
    }

    /// Replaces the round's players (in order, with their divisions).
    static func writePlayers(of round: Round, _ db: Database) throws {
        let id = round.id.text
        try db.execute(sql: "DELETE FROM round_players WHERE roundID = ?", arguments: [id])
        for (position, playerID) in round.playerIDs.enumerated() {
            try RoundPlayerRecord(
                roundID: id, playerID: playerID.text, position: position, division: round.divisions[playerID] ?? "",
                withdrawn: round.withdrawn.contains(playerID)
            ).insert(db)
        }
    }
}

/// Where each synced record type keeps its id and its version (an HLC as text): the one
/// list that the clock on start, the reconcile and backups read.
enum VersionedTables {
    static let all: [(type: RecordType, table: String, version: String)] = [
        (.player, "players", "updatedAt"),
        (.course, "courses", "updatedAt"),
        (.round, "rounds", "updatedAt"),
        (.scoreEvent, "score_events", "recordedAt"),
        (.clubSettings, "club_settings", "updatedAt"),
        (.event, "events", "updatedAt"),
        (.signature, "signatures", "signedAt"),
        (.season, "seasons", "updatedAt"),
        (.checkIn, "checkins", "updatedAt"),
        (.frozenHandicap, "frozen_handicaps", "frozenAt"),
        (.feePayment, "fee_payments", "recordedAt"),
    ]
}

struct RoundPlayerRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "round_players"
    var roundID: String
    var playerID: String
    var position: Int
    var division: String
    var withdrawn: Bool
}

struct EventRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "events"
    var id: String
    var name: String
    var divisions: String
    /// JSON, read and written whole: division → playoff.
    var playoffs: String
    var createdBy: String?
    var createdAt: Date
    var updatedAt: String
    var archived: Bool
    var seasonID: String?
    var checkInOpenedAt: Date?
    var playedOn: String?

    /// Throws when divisions or playoffs cannot be encoded, rather than store them empty.
    init(_ event: Event) throws {
        playedOn = event.playedOn
        seasonID = event.seasonID?.text
        checkInOpenedAt = event.checkInOpenedAt
        archived = event.archived
        id = event.id.text
        name = event.name
        divisions = String(decoding: try RecordCoding.encode(event.divisions), as: UTF8.self)
        playoffs = String(decoding: try RecordCoding.encode(event.playoffs), as: UTF8.self)
        createdBy = event.createdBy?.text
        createdAt = event.createdAt
        updatedAt = event.updatedAt.description
    }

    func domain() throws -> Event {
        var event = Event(
            id: try StoredValue.uuid(id, "events.id"), name: name,
            divisions: try StoredValue.json(divisions, [String].self, "events.divisions", of: id),
            playoffs: try StoredValue.json(playoffs, [String: Playoff].self, "events.playoffs", of: id),
            createdBy: createdBy.flatMap(UUID.init(text:)), createdAt: createdAt,
            updatedAt: try StoredValue.hlc(updatedAt, "events.updatedAt")
        )
        event.archived = archived
        event.seasonID = try seasonID.map { try StoredValue.uuid($0, "events.seasonID") }
        event.checkInOpenedAt = checkInOpenedAt
        event.playedOn = playedOn
        return event
    }
}

struct SeasonRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "seasons"
    var id: String
    var name: String
    var startsOn: String?
    var endsOn: String?
    /// JSON, read and written whole, like the points rule and the handicap method.
    var divisions: String
    var points: String
    var handicap: String?
    var createdBy: String?
    var createdAt: Date
    var updatedAt: String
    var archived: Bool

    init(_ season: Season) throws {
        archived = season.archived
        id = season.id.text
        name = season.name
        startsOn = season.startsOn
        endsOn = season.endsOn
        divisions = String(decoding: try RecordCoding.encode(season.divisions), as: UTF8.self)
        points = String(decoding: try RecordCoding.encode(season.points), as: UTF8.self)
        handicap = try season.handicap.map { String(decoding: try RecordCoding.encode($0), as: UTF8.self) }
        createdBy = season.createdBy?.text
        createdAt = season.createdAt
        updatedAt = season.updatedAt.description
    }

    func domain() throws -> Season {
        var season = Season(
            id: try StoredValue.uuid(id, "seasons.id"), name: name, startsOn: startsOn, endsOn: endsOn,
            divisions: try StoredValue.json(divisions, [String].self, "seasons.divisions", of: id),
            points: try StoredValue.json(points, PointsRule.self, "seasons.points", of: id),
            handicap: try handicap.map { try StoredValue.json($0, HandicapMethod.self, "seasons.handicap", of: id) },
            createdBy: createdBy.flatMap(UUID.init(text:)), createdAt: createdAt,
            updatedAt: try StoredValue.hlc(updatedAt, "seasons.updatedAt"))
        season.archived = archived
        return season
    }
}

struct SignatureRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "signatures"
    var id: String
    var roundID: String
    var playerID: String
    var signedBy: String?
    var signedAt: String

    init(_ signature: Signature) {
        id = signature.id.text
        roundID = signature.roundID.text
        playerID = signature.playerID.text
        signedBy = signature.signedBy?.text
        signedAt = signature.signedAt.description
    }

    func domain() throws -> Signature {
        Signature(
            id: try StoredValue.uuid(id, "signatures.id"), roundID: try StoredValue.uuid(roundID, "signatures.roundID"),
            playerID: try StoredValue.uuid(playerID, "signatures.playerID"), signedBy: signedBy.flatMap(UUID.init(text:)),
            signedAt: try StoredValue.hlc(signedAt, "signatures.signedAt"))
    }
}

struct ScoreEventRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "score_events"
    var id: String
    var roundID: String
    var playerID: String
    var hole: Int
    var strokes: Int?
    var dnf: Bool
    var reportedBy: String?
    var deviceID: String
    var supersedes: String?
    /// Space-separated ids: a short list that is only ever read whole.
    var resolves: String
    var recordedAt: String
    var penalties: Int

    init(_ event: ScoreEvent) {
        penalties = event.penalties
        id = event.id.text
        roundID = event.roundID.text
        playerID = event.playerID.text
        hole = event.hole
        strokes = event.strokes.count
        dnf = event.strokes == .dnf
        reportedBy = event.reportedBy?.text
        deviceID = event.deviceID.text
        supersedes = event.supersedes?.text
        resolves = event.resolves.map(\.text).joined(separator: " ")
        recordedAt = event.recordedAt.description
    }

    /// Stores `event` through a prepared statement (the group commit and a pull store
    /// thousands); with `ifAbsent`, an event already stored is left as it is. True when stored.
    @discardableResult
    static func insert(_ event: ScoreEvent, ifAbsent: Bool, _ db: Database) throws -> Bool {
        try ScoreEventRecord(event).insert(ifAbsent: ifAbsent, db)
    }

    @discardableResult
    func insert(ifAbsent: Bool, _ db: Database) throws -> Bool {
        let statement = try db.cachedStatement(
            sql: """
                INSERT \(ifAbsent ? "OR IGNORE " : "")INTO score_events (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        try Self.execute(statement, binding: CollectionOfOne(self), db)
        return db.changesCount > 0
    }

    /// Stores `rows` that are not stored yet, `batch` to a statement: a first sync stores a
    /// million, and what a statement costs besides its rows is then paid once per batch.
    /// Returns, per statement, its rows and how many of them were stored.
    static func insertIfAbsent(_ rows: [ScoreEventRecord], _ db: Database, stored: (ArraySlice<ScoreEventRecord>, Int) -> Void) throws {
        for start in stride(from: 0, to: rows.count, by: batch) {
            let chunk = rows[start..<min(start + batch, rows.count)]
            let statement = try db.cachedStatement(sql: chunk.count == batch ? batchInsert : insertIfAbsent(rows: chunk.count))
            try execute(statement, binding: chunk, db)
            stored(chunk, db.changesCount)
        }
    }

    /// Binds the rows' values straight to SQLite, as GRDB would bind them: going through
    /// `StatementArguments` (768 values made through key paths, then checked against the
    /// statement) was a quarter of the writer's time in a first sync. Setting no arguments
    /// first resets the statement and clears its bindings, and leaves the execution to GRDB
    /// (its observers, its errors) as always.
    private static func execute(_ statement: Statement, binding rows: some Collection<ScoreEventRecord>, _ db: Database) throws {
        statement.setUncheckedArguments(StatementArguments())
        var index: CInt = 1
        for row in rows {
            try row.bind(to: statement, at: &index, db)
        }
        assert(index - 1 == sqlite3_bind_parameter_count(statement.sqliteStatement), "a value for each placeholder")
        try statement.execute()
    }

    private func bind(to statement: Statement, at index: inout CInt, _ db: Database) throws {
        let handle = statement.sqliteStatement
        func check(_ code: CInt) throws {
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
            }
            index += 1
        }
        func text(_ value: String?) throws {
            guard var value else { return try check(sqlite3_bind_null(handle, index)) }
            try check(
                value.withUTF8 { bytes in
                    // An empty buffer may have no address, which SQLite would bind as NULL.
                    guard let address = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, Self.transient) }
                    return sqlite3_bind_text(handle, index, address, CInt(bytes.count), Self.transient)
                })
        }
        func integer(_ value: Int?) throws {
            guard let value else { return try check(sqlite3_bind_null(handle, index)) }
            try check(sqlite3_bind_int64(handle, index, Int64(value)))
        }
        try text(id)
        try text(roundID)
        try text(playerID)
        try integer(hole)
        try integer(strokes)
        try integer(dnf ? 1 : 0)
        try text(reportedBy)
        try text(deviceID)
        try text(supersedes)
        try text(resolves)
        try text(recordedAt)
        try integer(penalties)
    }

    /// SQLite copies the value at once (`SQLITE_TRANSIENT`, which C defines as a cast).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    private static func insertIfAbsent(rows: Int) -> String {
        let placeholders = repeatElement("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
        return "INSERT OR IGNORE INTO score_events (\(columns)) VALUES \(placeholders)"
    }

    private static let batchInsert = insertIfAbsent(rows: batch)

    static let batch = 64

    /// The columns `event(_:from:aliases:)` reads, in its order.
    static let columns = "id, roundID, playerID, hole, strokes, dnf, reportedBy, deviceID, supersedes, resolves, recordedAt, penalties"

    /// One event decoded column by column from `columns` starting at `offset` (a round can
    /// hold tens of thousands: Codable decoding would be most of a board's time), its player
    /// read as their canonical identity under `aliases`.
    static func event(_ row: Row, from offset: Int = 0, aliases: [String: String] = [:]) throws -> ScoreEvent {
        let id: String = row[offset]
        let player: String = row[offset + 2]
        let strokes: Strokes
        if row[offset + 5] as Bool {
            strokes = .dnf
        } else if let count = row[offset + 4] as Int? {
            strokes = .count(count)
        } else {
            throw StoreError.corrupt("score event \(id) has neither strokes nor DNF")
        }
        let resolves: String = row[offset + 9]
        return ScoreEvent(
            id: try StoredValue.uuid(id, "score_events.id"),
            roundID: try StoredValue.uuid(row[offset + 1], "score_events.roundID"),
            playerID: try StoredValue.uuid(aliases[player] ?? player, "score_events.playerID"),
            hole: row[offset + 3], strokes: strokes,
            reportedBy: try (row[offset + 6] as String?).map { try StoredValue.uuid($0, "score_events.reportedBy") },
            deviceID: try StoredValue.uuid(row[offset + 7], "score_events.deviceID"),
            supersedes: try (row[offset + 8] as String?).map { try StoredValue.uuid($0, "score_events.supersedes") },
            resolves: resolves.isEmpty ? [] : try resolves.split(separator: " ").map { try StoredValue.uuid(String($0), "score_events.resolves") },
            recordedAt: try StoredValue.hlc(row[offset + 10], "score_events.recordedAt"),
            penalties: row[offset + 11]
        )
    }
}

// MARK: Columns

// Column names come from each record's coding keys (as GRDB's demo does), so a renamed or
// dropped property is a compile error in every query instead of a runtime one.

extension PlayerRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let displayName = Column(CodingKeys.displayName)
        static let handle = Column(CodingKeys.handle)
        static let role = Column(CodingKeys.role)
        static let cloudRecordName = Column(CodingKeys.cloudRecordName)
        static let createdAt = Column(CodingKeys.createdAt)
        static let updatedAt = Column(CodingKeys.updatedAt)
        static let passwordHash = Column(CodingKeys.passwordHash)
        static let disabled = Column(CodingKeys.disabled)
        static let originDeviceID = Column(CodingKeys.originDeviceID)
        static let aliasOf = Column(CodingKeys.aliasOf)
        static let archived = Column(CodingKeys.archived)
        static let division = Column(CodingKeys.division)
        static let enteredRating = Column(CodingKeys.enteredRating)
        static let pdgaNumber = Column(CodingKeys.pdgaNumber)
        static let email = Column(CodingKeys.email)
    }
}

extension CourseRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let createdAt = Column(CodingKeys.createdAt)
        static let updatedAt = Column(CodingKeys.updatedAt)
        static let archived = Column(CodingKeys.archived)
    }
}

extension HoleRecord {
    enum Columns {
        static let courseID = Column(CodingKeys.courseID)
        static let number = Column(CodingKeys.number)
        static let par = Column(CodingKeys.par)
        static let distance = Column(CodingKeys.distance)
    }
}

extension RoundRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let courseID = Column(CodingKeys.courseID)
        static let status = Column(CodingKeys.status)
        static let startedAt = Column(CodingKeys.startedAt)
        static let completedAt = Column(CodingKeys.completedAt)
        static let createdBy = Column(CodingKeys.createdBy)
        static let createdAt = Column(CodingKeys.createdAt)
        static let updatedAt = Column(CodingKeys.updatedAt)
        static let version = Column(CodingKeys.version)
        static let eventID = Column(CodingKeys.eventID)
        static let cards = Column(CodingKeys.cards)
        static let archived = Column(CodingKeys.archived)
    }
}

extension RoundPlayerRecord {
    enum Columns {
        static let roundID = Column(CodingKeys.roundID)
        static let playerID = Column(CodingKeys.playerID)
        static let position = Column(CodingKeys.position)
        static let division = Column(CodingKeys.division)
        static let withdrawn = Column(CodingKeys.withdrawn)
    }
}

extension EventRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let divisions = Column(CodingKeys.divisions)
        static let playoffs = Column(CodingKeys.playoffs)
        static let createdBy = Column(CodingKeys.createdBy)
        static let createdAt = Column(CodingKeys.createdAt)
        static let updatedAt = Column(CodingKeys.updatedAt)
        static let archived = Column(CodingKeys.archived)
        static let seasonID = Column(CodingKeys.seasonID)
    }
}

struct CheckInRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "checkins"
    var id: String
    var eventID: String
    var playerID: String
    var division: String
    var paid: Bool
    var checkedInBy: String?
    var checkedInAt: Date
    var updatedAt: String
    var cancelled: Bool

    init(_ checkIn: CheckIn) {
        cancelled = checkIn.cancelled
        id = checkIn.recordID
        eventID = checkIn.eventID.text
        playerID = checkIn.playerID.text
        division = checkIn.division
        paid = checkIn.paid
        checkedInBy = checkIn.checkedInBy?.text
        checkedInAt = checkIn.checkedInAt
        updatedAt = checkIn.updatedAt.description
    }

    func domain() throws -> CheckIn {
        var checkIn = CheckIn(
            eventID: try StoredValue.uuid(eventID, "checkins.eventID"), playerID: try StoredValue.uuid(playerID, "checkins.playerID"),
            division: division, paid: paid, checkedInBy: checkedInBy.flatMap(UUID.init(text:)), checkedInAt: checkedInAt,
            updatedAt: try StoredValue.hlc(updatedAt, "checkins.updatedAt"))
        checkIn.cancelled = cancelled
        return checkIn
    }
}

extension CheckInRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let eventID = Column(CodingKeys.eventID)
        static let checkedInAt = Column(CodingKeys.checkedInAt)
        static let cancelled = Column(CodingKeys.cancelled)
    }
}

extension SeasonRecord {
    enum Columns {
        static let archived = Column(CodingKeys.archived)
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let createdAt = Column(CodingKeys.createdAt)
        static let updatedAt = Column(CodingKeys.updatedAt)
    }
}

extension SignatureRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let roundID = Column(CodingKeys.roundID)
        static let playerID = Column(CodingKeys.playerID)
        static let signedBy = Column(CodingKeys.signedBy)
        static let signedAt = Column(CodingKeys.signedAt)
    }
}

extension ScoreEventRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let roundID = Column(CodingKeys.roundID)
        static let playerID = Column(CodingKeys.playerID)
        static let hole = Column(CodingKeys.hole)
        static let strokes = Column(CodingKeys.strokes)
        static let dnf = Column(CodingKeys.dnf)
        static let reportedBy = Column(CodingKeys.reportedBy)
        static let deviceID = Column(CodingKeys.deviceID)
        static let supersedes = Column(CodingKeys.supersedes)
        static let resolves = Column(CodingKeys.resolves)
        static let recordedAt = Column(CodingKeys.recordedAt)
        static let penalties = Column(CodingKeys.penalties)
    }
}

struct FrozenHandicapRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "frozen_handicaps"
    var id: String
    var eventID: String
    var playerID: String
    /// The payload's JSON: value, strokes, method and rounds, or none of them.
    var handicap: String
    var frozenAt: String

    init(_ frozen: FrozenHandicap) throws {
        id = frozen.recordID
        eventID = frozen.eventID.text
        playerID = frozen.playerID.text
        handicap = String(decoding: try RecordCoding.encode(FrozenHandicapPayload(frozen)), as: UTF8.self)
        frozenAt = frozen.frozenAt.description
    }

    func domain() throws -> FrozenHandicap {
        let stamp = try StoredValue.hlc(frozenAt, "frozen_handicaps.frozenAt")
        guard let frozen = try StoredValue.json(handicap, FrozenHandicapPayload.self, "frozen_handicaps.handicap", of: id).frozen(at: stamp) else {
            throw StoreError.corrupt("frozen_handicaps.handicap of \(id) is half a handicap")
        }
        return frozen
    }
}

extension FrozenHandicapRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let eventID = Column(CodingKeys.eventID)
    }
}

struct FeePaymentRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "fee_payments"
    var id: String
    var eventID: String
    var playerID: String
    var paid: Bool
    var recordedBy: String?
    var recordedAt: String

    init(_ payment: FeePayment) {
        id = payment.id.text
        eventID = payment.eventID.text
        playerID = payment.playerID.text
        paid = payment.paid
        recordedBy = payment.recordedBy?.text
        recordedAt = payment.recordedAt.description
    }

    func domain() throws -> FeePayment {
        FeePayment(
            id: try StoredValue.uuid(id, "fee_payments.id"), eventID: try StoredValue.uuid(eventID, "fee_payments.eventID"),
            playerID: try StoredValue.uuid(playerID, "fee_payments.playerID"), paid: paid, recordedBy: recordedBy.flatMap(UUID.init(text:)),
            recordedAt: try StoredValue.hlc(recordedAt, "fee_payments.recordedAt"))
    }
}

extension FeePaymentRecord {
    enum Columns {
        static let eventID = Column(CodingKeys.eventID)
        static let recordedAt = Column(CodingKeys.recordedAt)
    }
}
