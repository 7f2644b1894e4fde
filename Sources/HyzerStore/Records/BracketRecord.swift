import Foundation
import GRDB
import HyzerCore

struct BracketRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "brackets"
    var id: String
    var eventID: String
    /// JSON: the bracket's payload fields that are lists (seeds, match ids, deadlines, concessions).
    var seeds: String
    var matchIDs: String
    var deadlines: String
    var conceded: String
    var createdBy: String?
    var createdAt: Date
    var updatedAt: String

    init(_ bracket: Bracket) throws {
        id = bracket.id.text
        eventID = bracket.eventID.text
        seeds = String(decoding: try RecordCoding.encode(bracket.seeds), as: UTF8.self)
        matchIDs = String(decoding: try RecordCoding.encode(bracket.matchIDs), as: UTF8.self)
        deadlines = String(decoding: try RecordCoding.encode(bracket.deadlines), as: UTF8.self)
        conceded = String(decoding: try RecordCoding.encode(bracket.conceded), as: UTF8.self)
        createdBy = bracket.createdBy?.text
        createdAt = bracket.createdAt
        updatedAt = bracket.updatedAt.description
    }

    func domain() throws -> Bracket {
        Bracket(
            id: try StoredValue.uuid(id, "brackets.id"), eventID: try StoredValue.uuid(eventID, "brackets.eventID"),
            seeds: try StoredValue.json(seeds, [UUID].self, "brackets.seeds", of: id),
            matchIDs: try StoredValue.json(matchIDs, [[UUID]].self, "brackets.matchIDs", of: id),
            deadlines: try StoredValue.json(deadlines, [Date?].self, "brackets.deadlines", of: id),
            conceded: try StoredValue.json(conceded, [UUID: UUID].self, "brackets.conceded", of: id),
            createdBy: createdBy.flatMap(UUID.init(text:)), createdAt: createdAt,
            updatedAt: try StoredValue.hlc(updatedAt, "brackets.updatedAt"))
    }
}

extension Bracket: StoredRecord {
    static let table = "brackets"
    static let versionColumn = "updatedAt"

    static func stored(_ id: String, _ db: Database) throws -> Bracket? { try BracketRecord.fetchOne(db, key: id)?.domain() }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        let id = recordID
        if try Self.isNotNewer(updatedAt, than: BracketRecord.fetchOne(db, key: id)?.updatedAt, db, id: id) { return false }
        try BracketRecord(self).save(db)
        return true
    }
}
