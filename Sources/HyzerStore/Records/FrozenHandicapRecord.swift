import Foundation
import GRDB
import HyzerCore

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

extension FrozenHandicap: StoredRecord {
    static let table = "frozen_handicaps"
    static let versionColumn = "frozenAt"

    static func stored(_ id: String, _ db: Database) throws -> FrozenHandicap? { try FrozenHandicapRecord.fetchOne(db, key: id)?.domain() }

    /// The earlier freeze stands (first writer wins).
    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        if let local = try FrozenHandicapRecord.fetchOne(db, key: recordID), let stamp = HLC(local.frozenAt), stamp <= frozenAt { return false }
        try FrozenHandicapRecord(self).save(db)
        // The night's boards show the handicap: their kept copies are out of date.
        try result.addRounds(where: RoundRecord.Columns.eventID == eventID.text, db)
        return true
    }
}
