import Foundation
import GRDB
import HyzerCore

struct SignatureRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "signatures"
    var id: String
    var roundID: String
    var playerID: String
    var signedBy: String?
    var signedAt: String

    init(_ signature: Signature) {
        id = signature.id.text
        roundID = signature.roundID.text
        playerID = signature.playerID.text
        signedBy = signature.signedBy?.text
        signedAt = signature.signedAt.description
    }

    func domain() throws -> Signature {
        Signature(
            id: try StoredValue.uuid(id, "signatures.id"), roundID: try StoredValue.uuid(roundID, "signatures.roundID"),
            playerID: try StoredValue.uuid(playerID, "signatures.playerID"), signedBy: signedBy.flatMap(UUID.init(text:)),
            signedAt: try StoredValue.hlc(signedAt, "signatures.signedAt"))
    }
}

extension SignatureRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let roundID = Column(CodingKeys.roundID)
        static let playerID = Column(CodingKeys.playerID)
        static let signedBy = Column(CodingKeys.signedBy)
        static let signedAt = Column(CodingKeys.signedAt)
    }
}

extension Signature: StoredRecord {
    static let table = "signatures"
    static let versionColumn = "signedAt"

    static func stored(_ id: String, _ db: Database) throws -> Signature? { try SignatureRecord.fetchOne(db, key: id)?.domain() }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        try SignatureRecord(self).insert(db, onConflict: .ignore)
        guard db.changesCount > 0 else { return false }
        result.rounds.insert(roundID)
        return true
    }
}
