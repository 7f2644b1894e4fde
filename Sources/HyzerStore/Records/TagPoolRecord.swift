import Foundation
import GRDB
import HyzerCore

struct TagPoolRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "tag_pools"
    var id: String
    var name: String
    /// Space-separated, ascending: a short list that is only ever read whole.
    var numbers: String
    var seasonID: String?
    var createdBy: String?
    var createdAt: Date
    var updatedAt: String
    var archived: Bool

    init(_ pool: TagPool) {
        id = pool.id.text
        name = pool.name
        numbers = pool.numbers.map(String.init).joined(separator: " ")
        seasonID = pool.seasonID?.text
        createdBy = pool.createdBy?.text
        createdAt = pool.createdAt
        updatedAt = pool.updatedAt.description
        archived = pool.archived
    }

    func domain() throws -> TagPool {
        let numbers = try numbers.split(separator: " ").map { text in
            guard let number = Int(text) else { throw StoreError.corrupt("tag_pools.numbers of \(id) holds \(text)") }
            return number
        }
        var pool = TagPool(
            id: try StoredValue.uuid(id, "tag_pools.id"), name: name, numbers: numbers,
            seasonID: try seasonID.map { try StoredValue.uuid($0, "tag_pools.seasonID") },
            createdBy: createdBy.flatMap(UUID.init(text:)), createdAt: createdAt, updatedAt: try StoredValue.hlc(updatedAt, "tag_pools.updatedAt"))
        pool.archived = archived
        return pool
    }
}

extension TagPool: StoredRecord {
    static let table = "tag_pools"
    static let versionColumn = "updatedAt"

    static func stored(_ id: String, _ db: Database) throws -> TagPool? { try TagPoolRecord.fetchOne(db, key: id)?.domain() }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        let id = recordID
        if try Self.isNotNewer(updatedAt, than: TagPoolRecord.fetchOne(db, key: id)?.updatedAt, db, id: id) { return false }
        try TagPoolRecord(self).save(db)
        // Its tag rounds' pages show its exchange.
        try result.addRounds(where: RoundRecord.Columns.tagsID == id, db)
        return true
    }
}
