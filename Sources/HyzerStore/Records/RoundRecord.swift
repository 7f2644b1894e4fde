import Foundation
import GRDB
import HyzerCore

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
    var tagsID: String?
    var format: String
    /// JSON: the teams of a team round; "" on stroke play.
    var teams: String
    var caliRule: String?
    var matchID: String?
    /// JSON: a putting round's layout; "" on every other format.
    var putting: String
    /// JSON: a mulligan night's allowance; "" on every other round.
    var mulligans: String

    /// Throws when the cards cannot be encoded: an empty list stored instead would lose them.
    init(_ round: Round, version: Int) throws {
        archived = round.archived
        tagsID = round.tagsID?.text
        format = round.format.rawValue
        teams = round.teams.isEmpty ? "" : String(decoding: try RecordCoding.encode(round.teams), as: UTF8.self)
        caliRule = round.caliRule?.rawValue
        matchID = round.matchID?.text
        putting = try round.putting.map { String(decoding: try RecordCoding.encode($0), as: UTF8.self) } ?? ""
        mulligans = try round.mulligans.map { String(decoding: try RecordCoding.encode($0), as: UTF8.self) } ?? ""
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
        round.tagsID = tagsID.flatMap(UUID.init(text:))
        round.format = try StoredValue.raw(format, "rounds.format", of: id)
        round.teams = teams.isEmpty ? [] : try StoredValue.json(teams, [Team].self, "rounds.teams", of: id)
        round.caliRule = try caliRule.map { try StoredValue.raw($0, "rounds.caliRule", of: id) }
        round.matchID = try matchID.map { try StoredValue.uuid($0, "rounds.matchID") }
        round.putting = putting.isEmpty ? nil : try StoredValue.json(putting, PuttingSetup.self, "rounds.putting", of: id)
        round.mulligans = mulligans.isEmpty ? nil : try StoredValue.json(mulligans, MulliganRule.self, "rounds.mulligans", of: id)
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
        static let tagsID = Column(CodingKeys.tagsID)
        static let format = Column(CodingKeys.format)
    }
}

struct RoundPlayerRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "round_players"
    var roundID: String
    var playerID: String
    var position: Int
    var division: String
    var withdrawn: Bool
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

extension Round: StoredRecord {
    static let table = "rounds"
    static let versionColumn = "updatedAt"

    static func stored(_ id: String, _ db: Database) throws -> Round? { try RoundRecord.round(id, db) }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        let id = recordID
        let local = try RoundRecord.fetchOne(db, key: id)
        if try Self.isNotNewer(updatedAt, than: local?.updatedAt, db, id: id) { return false }
        try RoundRecord(self, version: local?.version ?? 0).save(db)
        try RoundRecord.writePlayers(of: self, db)
        result.rounds.insert(self.id)
        return true
    }
}
