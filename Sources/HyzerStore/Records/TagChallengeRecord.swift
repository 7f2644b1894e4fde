import Foundation
import GRDB
import HyzerCore

struct TagChallengeRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "tag_challenges"
    var id: String
    var poolID: String
    var challengerID: String
    /// Space-separated: a short list that is only ever read whole.
    var challengedIDs: String
    var deadline: Date
    var status: String
    var roundID: String?
    var createdBy: String?
    var createdAt: Date
    var updatedAt: String

    init(_ challenge: TagChallenge) {
        id = challenge.id.text
        poolID = challenge.poolID.text
        challengerID = challenge.challengerID.text
        challengedIDs = challenge.challengedIDs.map(\.text).joined(separator: " ")
        deadline = challenge.deadline
        status = challenge.status.rawValue
        roundID = challenge.roundID?.text
        createdBy = challenge.createdBy?.text
        createdAt = challenge.createdAt
        updatedAt = challenge.updatedAt.description
    }

    func domain() throws -> TagChallenge {
        TagChallenge(
            id: try StoredValue.uuid(id, "tag_challenges.id"), poolID: try StoredValue.uuid(poolID, "tag_challenges.poolID"),
            challengerID: try StoredValue.uuid(challengerID, "tag_challenges.challengerID"),
            challengedIDs: try challengedIDs.split(separator: " ").map { try StoredValue.uuid(String($0), "tag_challenges.challengedIDs") },
            deadline: deadline, status: try StoredValue.raw(status, "tag_challenges.status", of: id),
            roundID: try roundID.map { try StoredValue.uuid($0, "tag_challenges.roundID") }, createdBy: createdBy.flatMap(UUID.init(text:)),
            createdAt: createdAt, updatedAt: try StoredValue.hlc(updatedAt, "tag_challenges.updatedAt"))
    }
}

extension TagChallenge: StoredRecord {
    static let table = "tag_challenges"
    static let versionColumn = "updatedAt"

    static func stored(_ id: String, _ db: Database) throws -> TagChallenge? { try TagChallengeRecord.fetchOne(db, key: id)?.domain() }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        let id = recordID
        if try Self.isNotNewer(updatedAt, than: TagChallengeRecord.fetchOne(db, key: id)?.updatedAt, db, id: id) { return false }
        try TagChallengeRecord(self).save(db)
        return true
    }
}
