import Foundation
import GRDB
import HyzerCore

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

extension Event: StoredRecord {
    static let table = "events"
    static let versionColumn = "updatedAt"

    static func stored(_ id: String, _ db: Database) throws -> Event? { try EventRecord.fetchOne(db, key: id)?.domain() }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        let id = recordID
        if try Self.isNotNewer(updatedAt, than: EventRecord.fetchOne(db, key: id)?.updatedAt, db, id: id) { return false }
        try EventRecord(self).save(db)
        // Its rounds' boards show the event's divisions and playoff.
        try result.addRounds(where: RoundRecord.Columns.eventID == id, db)
        return true
    }
}
