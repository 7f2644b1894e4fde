import Foundation
import GRDB
import HyzerCore

struct PotRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "pots"
    var id: String
    var name: String
    var kind: String
    var seasonID: String?
    var capCents: Int?
    var overflowPotID: String?
    var createdBy: String?
    var createdAt: Date
    var updatedAt: String
    var archived: Bool

    init(_ pot: Pot) {
        id = pot.id.text
        name = pot.name
        kind = pot.kind.rawValue
        seasonID = pot.seasonID?.text
        capCents = pot.capCents
        overflowPotID = pot.overflowPotID?.text
        createdBy = pot.createdBy?.text
        createdAt = pot.createdAt
        updatedAt = pot.updatedAt.description
        archived = pot.archived
    }

    func domain() throws -> Pot {
        guard let kind = Pot.Kind(rawValue: kind) else { throw StoreError.corrupt("pots row \(id) has kind \(kind)") }
        var pot = Pot(
            id: try StoredValue.uuid(id, "pots.id"), name: name, kind: kind, seasonID: try seasonID.map { try StoredValue.uuid($0, "pots.seasonID") },
            capCents: capCents, overflowPotID: try overflowPotID.map { try StoredValue.uuid($0, "pots.overflowPotID") },
            createdBy: createdBy.flatMap(UUID.init(text:)), createdAt: createdAt, updatedAt: try StoredValue.hlc(updatedAt, "pots.updatedAt"))
        pot.archived = archived
        return pot
    }
}

extension Pot: StoredRecord {
    static let table = "pots"
    static let versionColumn = "updatedAt"

    static func stored(_ id: String, _ db: Database) throws -> Pot? { try PotRecord.fetchOne(db, key: id)?.domain() }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        let id = recordID
        if try Self.isNotNewer(updatedAt, than: PotRecord.fetchOne(db, key: id)?.updatedAt, db, id: id) { return false }
        try PotRecord(self).save(db)
        return true
    }
}
