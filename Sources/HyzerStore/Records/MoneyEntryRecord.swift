import Foundation
import GRDB
import HyzerCore

struct MoneyEntryRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "money_entries"
    var id: String
    var kind: String
    var cents: Int
    var potID: String?
    var toPotID: String?
    var eventID: String?
    var playerID: String?
    var division: String?
    var place: Int?
    var method: String?
    var batchID: String?
    var note: String?
    var recordedBy: String?
    var recordedAt: String

    init(_ entry: MoneyEntry) {
        id = entry.id.text
        kind = entry.kind.rawValue
        cents = entry.cents
        potID = entry.potID?.text
        toPotID = entry.toPotID?.text
        eventID = entry.eventID?.text
        playerID = entry.playerID?.text
        division = entry.division
        place = entry.place
        method = entry.method?.rawValue
        batchID = entry.batchID?.text
        note = entry.note
        recordedBy = entry.recordedBy?.text
        recordedAt = entry.recordedAt.description
    }

    func domain() throws -> MoneyEntry {
        func uuid(_ text: String?, _ column: String) throws -> UUID? { try text.map { try StoredValue.uuid($0, "money_entries.\(column)") } }
        guard let kind = MoneyEntry.Kind(rawValue: kind) else { throw StoreError.corrupt("money_entries row \(id) has kind \(kind)") }
        var method: MoneyEntry.Method?
        if let raw = self.method {
            guard let known = MoneyEntry.Method(rawValue: raw) else { throw StoreError.corrupt("money_entries row \(id) has method \(raw)") }
            method = known
        }
        return MoneyEntry(
            id: try StoredValue.uuid(id, "money_entries.id"), kind: kind, cents: cents, potID: try uuid(potID, "potID"),
            toPotID: try uuid(toPotID, "toPotID"), eventID: try uuid(eventID, "eventID"), playerID: try uuid(playerID, "playerID"),
            division: division, place: place, method: method, batchID: try uuid(batchID, "batchID"), note: note,
            recordedBy: recordedBy.flatMap(UUID.init(text:)), recordedAt: try StoredValue.hlc(recordedAt, "money_entries.recordedAt"))
    }
}

extension MoneyEntry: StoredRecord {
    static let table = "money_entries"
    static let versionColumn = "recordedAt"

    static func stored(_ id: String, _ db: Database) throws -> MoneyEntry? { try MoneyEntryRecord.fetchOne(db, key: id)?.domain() }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        try MoneyEntryRecord(self).insert(db, onConflict: .ignore)
        return db.changesCount > 0
    }
}
