import Foundation
import GRDB
import GRDBSQLite
import HyzerCore

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
    var mulligans: Int

    init(_ event: ScoreEvent) {
        penalties = event.penalties
        mulligans = event.mulligans
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
                INSERT \(ifAbsent ? "OR IGNORE " : "")INTO score_events (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
        try integer(mulligans)
    }

    /// SQLite copies the value at once (`SQLITE_TRANSIENT`, which C defines as a cast).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    private static func insertIfAbsent(rows: Int) -> String {
        let placeholders = repeatElement("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
        return "INSERT OR IGNORE INTO score_events (\(columns)) VALUES \(placeholders)"
    }

    private static let batchInsert = insertIfAbsent(rows: batch)

    static let batch = 64

    /// The columns `event(_:from:aliases:)` reads, in its order.
    static let columns = "id, roundID, playerID, hole, strokes, dnf, reportedBy, deviceID, supersedes, resolves, recordedAt, penalties, mulligans"

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
            penalties: row[offset + 11], mulligans: row[offset + 12]
        )
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
        static let mulligans = Column(CodingKeys.mulligans)
    }
}

extension ScoreEvent: StoredRecord {
    static let table = "score_events"
    static let versionColumn = "recordedAt"

    static func stored(_ id: String, _ db: Database) throws -> ScoreEvent? {
        try Row.fetchOne(db, sql: "SELECT \(ScoreEventRecord.columns) FROM score_events WHERE id = ?", arguments: [id]).map {
            try ScoreEventRecord.event($0)
        }
    }

    /// A pull stores score events many to a statement (`DomainStore.applyRemote`); this is one.
    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        guard try ScoreEventRecord(self).insert(ifAbsent: true, db) else { return false }
        result.rounds.insert(roundID)
        return true
    }
}
