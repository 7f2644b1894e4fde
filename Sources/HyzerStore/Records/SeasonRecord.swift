import Foundation
import GRDB
import HyzerCore

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
    var fees: String?
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
        fees = try season.fees.map { String(decoding: try RecordCoding.encode($0), as: UTF8.self) }
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
        season.fees = try fees.map { try StoredValue.json($0, FeePlan.self, "seasons.fees", of: id) }
        return season
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

extension Season: StoredRecord {
    static let table = "seasons"
    static let versionColumn = "updatedAt"

    static func stored(_ id: String, _ db: Database) throws -> Season? { try SeasonRecord.fetchOne(db, key: id)?.domain() }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        let id = recordID
        if try Self.isNotNewer(updatedAt, than: SeasonRecord.fetchOne(db, key: id)?.updatedAt, db, id: id) { return false }
        try SeasonRecord(self).save(db)
        // Its nights' boards show its handicaps and points.
        let nights = EventRecord.filter(EventRecord.Columns.seasonID == id).select(EventRecord.Columns.id)
        try result.addRounds(where: nights.contains(RoundRecord.Columns.eventID), db)
        return true
    }
}
