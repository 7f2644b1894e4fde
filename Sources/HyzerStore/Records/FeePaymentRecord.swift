import Foundation
import GRDB
import HyzerCore

struct FeePaymentRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "fee_payments"
    var id: String
    var eventID: String
    var playerID: String
    var paid: Bool
    var recordedBy: String?
    var recordedAt: String
    var cents: Int?
    var funds: String?
    var division: String?
    /// JSON: the payout table in force when paid.
    var payout: String?

    init(_ payment: FeePayment) throws {
        id = payment.id.text
        eventID = payment.eventID.text
        playerID = payment.playerID.text
        paid = payment.paid
        recordedBy = payment.recordedBy?.text
        recordedAt = payment.recordedAt.description
        cents = payment.cents
        funds = payment.funds.isEmpty ? nil : String(decoding: try RecordCoding.encode(payment.funds), as: UTF8.self)
        division = payment.division
        payout = try payment.payout.map { String(decoding: try RecordCoding.encode($0), as: UTF8.self) }
    }

    func domain() throws -> FeePayment {
        var payment = FeePayment(
            id: try StoredValue.uuid(id, "fee_payments.id"), eventID: try StoredValue.uuid(eventID, "fee_payments.eventID"),
            playerID: try StoredValue.uuid(playerID, "fee_payments.playerID"), paid: paid, recordedBy: recordedBy.flatMap(UUID.init(text:)),
            recordedAt: try StoredValue.hlc(recordedAt, "fee_payments.recordedAt"))
        payment.cents = cents
        payment.funds = try funds.map { try StoredValue.json($0, [FundAmount].self, "fee_payments.funds", of: id) } ?? []
        payment.division = division
        payment.payout = try payout.map { try StoredValue.json($0, FeePlan.Payout.self, "fee_payments.payout", of: id) }
        return payment
    }
}

extension FeePaymentRecord {
    enum Columns {
        static let eventID = Column(CodingKeys.eventID)
        static let recordedAt = Column(CodingKeys.recordedAt)
    }
}

extension FeePayment: StoredRecord {
    static let table = "fee_payments"
    static let versionColumn = "recordedAt"

    static func stored(_ id: String, _ db: Database) throws -> FeePayment? { try FeePaymentRecord.fetchOne(db, key: id)?.domain() }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        try FeePaymentRecord(self).insert(db, onConflict: .ignore)
        return db.changesCount > 0
    }
}
