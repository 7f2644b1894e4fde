import Foundation

/// A coach's change to a pool outside its rounds: a tag handed to a player, taken back, or
/// two holders trading. Append-only and synced; it takes its place among the pool's rounds by
/// its clock reading, so a trade recorded between two rounds falls between them.
public struct TagMove: Identifiable, Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// `tag` to `player`; a tag they held before becomes unassigned.
        case assign(tag: Int, player: UUID)
        /// `tag` becomes unassigned (lost, lapsed).
        case reclaim(tag: Int)
        /// The two players' tags change hands.
        case trade(UUID, UUID)

        public var name: String {
            switch self {
            case .assign: "assign"
            case .reclaim: "reclaim"
            case .trade: "trade"
            }
        }
    }

    public var id: UUID
    public var poolID: UUID
    public var kind: Kind
    public var recordedBy: UUID?
    public var recordedAt: HLC

    public init(id: UUID, poolID: UUID, kind: Kind, recordedBy: UUID?, recordedAt: HLC) {
        self.id = id
        self.poolID = poolID
        self.kind = kind
        self.recordedBy = recordedBy
        self.recordedAt = recordedAt
    }
}

public struct TagMovePayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var poolID: UUID
    public var kind: String
    public var tag: Int?
    public var playerIDs: [UUID]?
    public var recordedBy: UUID?

    public init(_ move: TagMove) {
        id = move.id
        poolID = move.poolID
        kind = move.kind.name
        recordedBy = move.recordedBy
        switch move.kind {
        case .assign(let tag, let player):
            self.tag = tag
            playerIDs = [player]
        case .reclaim(let tag):
            self.tag = tag
        case .trade(let a, let b):
            playerIDs = [a, b]
        }
    }

    public func move(recordedAt: HLC) -> TagMove? {
        let move: TagMove.Kind
        switch (kind, tag, playerIDs ?? []) {
        case ("assign", let tag?, let players) where players.count == 1: move = .assign(tag: tag, player: players[0])
        case ("reclaim", let tag?, let players) where players.isEmpty: move = .reclaim(tag: tag)
        case ("trade", nil, let players) where players.count == 2 && players[0] != players[1]: move = .trade(players[0], players[1])
        default: return nil
        }
        return TagMove(id: id, poolID: poolID, kind: move, recordedBy: recordedBy, recordedAt: recordedAt)
    }
}

extension TagMove: SyncedRecord {
    public static let noun = "Tag move"
    public static let recordType = RecordType.tagMove
    public static let merge = MergeRule.insertOnly
    public static let applyOrder = 12
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { recordedAt }
    public var recordPayload: TagMovePayload { TagMovePayload(self) }
    public static func value(_ payload: TagMovePayload, version: HLC) -> TagMove? { payload.move(recordedAt: version) }
}
