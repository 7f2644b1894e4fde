import Foundation
import GRDB
import HyzerCore

struct PlayerRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "players"
    var id: String
    var displayName: String
    var handle: String
    var role: String
    var cloudRecordName: String?
    var createdAt: Date
    var updatedAt: String
    var passwordHash: String?
    var disabled: Bool
    var originDeviceID: String?
    /// Derived on this device (see `IdentityMerge`), never synced: the canonical player.
    var aliasOf: String?
    var archived: Bool
    var division: String
    var enteredRating: Int?
    var pdgaNumber: Int?
    var email: String?

    init(_ player: Player) {
        enteredRating = player.enteredRating
        pdgaNumber = player.pdgaNumber
        email = player.email
        archived = player.archived
        division = player.division
        id = player.id.text
        displayName = player.displayName
        handle = player.handle.value
        role = player.role.rawValue
        cloudRecordName = player.cloudRecordName
        createdAt = player.createdAt
        updatedAt = player.updatedAt.description
        passwordHash = player.passwordHash
        disabled = player.disabled
        originDeviceID = player.originDeviceID?.text
        aliasOf = nil
    }

    /// Column by column rather than Codable's way: every board reads its whole field.
    init(row: Row) throws {
        id = row[Columns.id]
        displayName = row[Columns.displayName]
        handle = row[Columns.handle]
        role = row[Columns.role]
        cloudRecordName = row[Columns.cloudRecordName]
        createdAt = row[Columns.createdAt]
        updatedAt = row[Columns.updatedAt]
        passwordHash = row[Columns.passwordHash]
        disabled = row[Columns.disabled]
        originDeviceID = row[Columns.originDeviceID]
        aliasOf = row[Columns.aliasOf]
        archived = row[Columns.archived]
        division = row[Columns.division]
        enteredRating = row[Columns.enteredRating]
        pdgaNumber = row[Columns.pdgaNumber]
        email = row[Columns.email]
    }

    func domain() throws -> Player {
        var player = Player(
            id: try StoredValue.uuid(id, "players.id"), displayName: displayName, handle: Handle(trusted: handle),
            role: try StoredValue.raw(role, "players.role", of: id), cloudRecordName: cloudRecordName, createdAt: createdAt,
            updatedAt: try StoredValue.hlc(updatedAt, "players.updatedAt"),
            passwordHash: passwordHash, disabled: disabled, originDeviceID: originDeviceID.flatMap(UUID.init(text:))
        )
        player.archived = archived
        player.division = division
        player.enteredRating = enteredRating
        player.pdgaNumber = pdgaNumber
        player.email = email
        return player
    }
}

extension PlayerRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let displayName = Column(CodingKeys.displayName)
        static let handle = Column(CodingKeys.handle)
        static let role = Column(CodingKeys.role)
        static let cloudRecordName = Column(CodingKeys.cloudRecordName)
        static let createdAt = Column(CodingKeys.createdAt)
        static let updatedAt = Column(CodingKeys.updatedAt)
        static let passwordHash = Column(CodingKeys.passwordHash)
        static let disabled = Column(CodingKeys.disabled)
        static let originDeviceID = Column(CodingKeys.originDeviceID)
        static let aliasOf = Column(CodingKeys.aliasOf)
        static let archived = Column(CodingKeys.archived)
        static let division = Column(CodingKeys.division)
        static let enteredRating = Column(CodingKeys.enteredRating)
        static let pdgaNumber = Column(CodingKeys.pdgaNumber)
        static let email = Column(CodingKeys.email)
    }
}

extension Player: StoredRecord {
    static let table = "players"
    static let versionColumn = "updatedAt"

    static func stored(_ id: String, _ db: Database) throws -> Player? { try PlayerRecord.fetchOne(db, key: id)?.domain() }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        let id = recordID
        if try Self.isNotNewer(updatedAt, than: PlayerRecord.fetchOne(db, key: id)?.updatedAt, db, id: id) { return false }
        // The same handle on another player is the same person created on two devices
        // apart: `savePlayer` merges them into one identity, keeping both records.
        try DomainStore.savePlayer(self, db)
        return true
    }
}
