import Foundation
import GRDB
import HyzerCore

struct TagMoveRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "tag_moves"
    var id: String
    var poolID: String
    var kind: String
    var tag: Int?
    var playerID: String?
    var otherPlayerID: String?
    var recordedBy: String?
    var recordedAt: String

    init(_ move: TagMove) {
        id = move.id.text
        poolID = move.poolID.text
        kind = move.kind.name
        recordedBy = move.recordedBy?.text
        recordedAt = move.recordedAt.description
        switch move.kind {
        case .assign(let tag, let player):
            self.tag = tag
            playerID = player.text
        case .reclaim(let tag):
            self.tag = tag
        case .trade(let a, let b):
            playerID = a.text
            otherPlayerID = b.text
        }
    }

    func domain() throws -> TagMove {
        let player = try playerID.map { try StoredValue.uuid($0, "tag_moves.playerID") }
        let other = try otherPlayerID.map { try StoredValue.uuid($0, "tag_moves.otherPlayerID") }
        let kind: TagMove.Kind
        switch (self.kind, tag, player, other) {
        case ("assign", let tag?, let player?, nil): kind = .assign(tag: tag, player: player)
        case ("reclaim", let tag?, nil, nil): kind = .reclaim(tag: tag)
        case ("trade", nil, let a?, let b?): kind = .trade(a, b)
        default: throw StoreError.corrupt("tag_moves row \(id) is no assign, reclaim or trade")
        }
        return TagMove(
            id: try StoredValue.uuid(id, "tag_moves.id"), poolID: try StoredValue.uuid(poolID, "tag_moves.poolID"), kind: kind,
            recordedBy: recordedBy.flatMap(UUID.init(text:)), recordedAt: try StoredValue.hlc(recordedAt, "tag_moves.recordedAt"))
    }
}

extension TagMove: StoredRecord {
    static let table = "tag_moves"
    static let versionColumn = "recordedAt"

    static func stored(_ id: String, _ db: Database) throws -> TagMove? { try TagMoveRecord.fetchOne(db, key: id)?.domain() }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        try TagMoveRecord(self).insert(db, onConflict: .ignore)
        guard db.changesCount > 0 else { return false }
        try result.addRounds(where: RoundRecord.Columns.tagsID == poolID.text, db)
        return true
    }
}
