import Foundation
import GRDB
import HyzerCore

struct MulliganSaleRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "mulligan_sales"
    var id: String
    var roundID: String
    var playerID: String
    var count: Int
    var cents: Int
    var recordedBy: String?
    var recordedAt: String

    init(_ sale: MulliganSale) {
        id = sale.id.text
        roundID = sale.roundID.text
        playerID = sale.playerID.text
        count = sale.count
        cents = sale.cents
        recordedBy = sale.recordedBy?.text
        recordedAt = sale.recordedAt.description
    }

    func domain() throws -> MulliganSale {
        MulliganSale(
            id: try StoredValue.uuid(id, "mulligan_sales.id"), roundID: try StoredValue.uuid(roundID, "mulligan_sales.roundID"),
            playerID: try StoredValue.uuid(playerID, "mulligan_sales.playerID"), count: count, cents: cents,
            recordedBy: recordedBy.flatMap(UUID.init(text:)), recordedAt: try StoredValue.hlc(recordedAt, "mulligan_sales.recordedAt"))
    }

    /// A round's sales in the order they were stored, each under its player's canonical identity.
    static func sales(of roundID: String, aliases: [String: String], _ db: Database) throws -> [MulliganSale] {
        try MulliganSaleRecord.fetchAll(db, sql: "SELECT * FROM mulligan_sales WHERE roundID = ? ORDER BY rowid", arguments: [roundID]).map { row in
            var sale = try row.domain()
            if let canonical = aliases[row.playerID].flatMap(UUID.init(text:)) { sale.playerID = canonical }
            return sale
        }
    }
}

extension MulliganSale: StoredRecord {
    static let table = "mulligan_sales"
    static let versionColumn = "recordedAt"

    static func stored(_ id: String, _ db: Database) throws -> MulliganSale? { try MulliganSaleRecord.fetchOne(db, key: id)?.domain() }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        try MulliganSaleRecord(self).insert(db, onConflict: .ignore)
        guard db.changesCount > 0 else { return false }
        result.rounds.insert(roundID)
        return true
    }
}
