import Foundation

/// A player's handicap for one league night as it stood when the night's first round started
/// (or when they joined it later): what the night's net results use, whatever is corrected
/// or played afterwards. "No handicap" is frozen too. One per night and player; two devices
/// that froze it differently keep the earlier freeze.
public struct FrozenHandicap: Hashable, Sendable {
    public var eventID: UUID
    public var playerID: UUID
    /// Nil: the player had no handicap yet that night.
    public var handicap: Handicap?
    public var frozenAt: HLC

    public init(eventID: UUID, playerID: UUID, handicap: Handicap?, frozenAt: HLC) {
        self.eventID = eventID
        self.playerID = playerID
        self.handicap = handicap
        self.frozenAt = frozenAt
    }

    public static func recordID(event: UUID, player: UUID) -> String { CheckIn.recordID(event: event, player: player) }
    public var recordID: String { Self.recordID(event: eventID, player: playerID) }
}

public struct FrozenHandicapPayload: Codable, Hashable, Sendable {
    public var eventID: UUID
    public var playerID: UUID
    public var value: Double?
    public var strokes: Int?
    public var method: HandicapMethod.Kind?
    public var roundIDs: [UUID]

    public init(_ frozen: FrozenHandicap) {
        eventID = frozen.eventID
        playerID = frozen.playerID
        value = frozen.handicap?.value
        strokes = frozen.handicap?.strokes
        method = frozen.handicap?.method
        roundIDs = frozen.handicap?.roundIDs ?? []
    }

    /// Nil when the payload is half a handicap or out of any method's range.
    public func frozen(at stamp: HLC) -> FrozenHandicap? {
        switch (value, strokes, method) {
        case (nil, nil, nil):
            return FrozenHandicap(eventID: eventID, playerID: playerID, handicap: nil, frozenAt: stamp)
        case (let value?, let strokes?, let method?):
            guard value.isFinite, abs(value) <= 1000, abs(strokes) <= 1000 else { return nil }
            return FrozenHandicap(
                eventID: eventID, playerID: playerID, handicap: Handicap(value: value, strokes: strokes, method: method, roundIDs: roundIDs),
                frozenAt: stamp)
        default:
            return nil
        }
    }
}

extension FrozenHandicap: SyncedRecord {
    public static let noun = "Handicap"
    public static let recordType = RecordType.frozenHandicap
    public static let merge = MergeRule.firstWriterWins
    public static let applyOrder = 9
    public var recordVersion: HLC { frozenAt }
    public var recordPayload: FrozenHandicapPayload { FrozenHandicapPayload(self) }
    public static func value(_ payload: FrozenHandicapPayload, version: HLC) -> FrozenHandicap? { payload.frozen(at: version) }
}
