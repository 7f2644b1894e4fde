import Foundation
import GRDB
import HyzerCore

struct CheckInRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "checkins"
    var id: String
    var eventID: String
    var playerID: String
    var division: String
    var paid: Bool
    var checkedInBy: String?
    var checkedInAt: Date
    var updatedAt: String
    var cancelled: Bool

    init(_ checkIn: CheckIn) {
        cancelled = checkIn.cancelled
        id = checkIn.recordID
        eventID = checkIn.eventID.text
        playerID = checkIn.playerID.text
        division = checkIn.division
        paid = checkIn.paid
        checkedInBy = checkIn.checkedInBy?.text
        checkedInAt = checkIn.checkedInAt
        updatedAt = checkIn.updatedAt.description
    }

    func domain() throws -> CheckIn {
        var checkIn = CheckIn(
            eventID: try StoredValue.uuid(eventID, "checkins.eventID"), playerID: try StoredValue.uuid(playerID, "checkins.playerID"),
            division: division, paid: paid, checkedInBy: checkedInBy.flatMap(UUID.init(text:)), checkedInAt: checkedInAt,
            updatedAt: try StoredValue.hlc(updatedAt, "checkins.updatedAt"))
        checkIn.cancelled = cancelled
        return checkIn
    }
}

extension CheckInRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let eventID = Column(CodingKeys.eventID)
        static let checkedInAt = Column(CodingKeys.checkedInAt)
        static let cancelled = Column(CodingKeys.cancelled)
    }
}

extension CheckIn: StoredRecord {
    static let table = "checkins"
    static let versionColumn = "updatedAt"

    static func stored(_ id: String, _ db: Database) throws -> CheckIn? { try CheckInRecord.fetchOne(db, key: id)?.domain() }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        if try Self.isNotNewer(updatedAt, than: CheckInRecord.fetchOne(db, key: recordID)?.updatedAt, db, id: recordID) { return false }
        try CheckInRecord(self).save(db)
        return true
    }
}
