import Foundation

/// The kinds of record that travel through the cloud.
public enum RecordType: String, Codable, CaseIterable, Sendable {
    case player, course, round, scoreEvent, clubSettings, event, signature, season, checkIn, frozenHandicap, feePayment, tagPool, tagMove,
        tagChallenge, pot, moneyEntry, bracket, mulliganSale
}

extension RecordType {
    /// The registry: each type's one declaration. A new type is a new case here and a
    /// conformance beside its value; the compiler finds every other place (`RecordType.stored`).
    public var declaration: any SyncedRecord.Type {
        switch self {
        case .player: Player.self
        case .course: Course.self
        case .round: Round.self
        case .scoreEvent: ScoreEvent.self
        case .clubSettings: ClubSettingsPayload.self
        case .event: Event.self
        case .signature: Signature.self
        case .season: Season.self
        case .checkIn: CheckIn.self
        case .frozenHandicap: FrozenHandicap.self
        case .feePayment: FeePayment.self
        case .tagPool: TagPool.self
        case .tagMove: TagMove.self
        case .tagChallenge: TagChallenge.self
        case .pot: Pot.self
        case .moneyEntry: MoneyEntry.self
        case .bracket: Bracket.self
        case .mulliganSale: MulliganSale.self
        }
    }

    /// The order a batch applies in, so a round's course and players precede it and a
    /// score its round.
    public var applyOrder: Int { declaration.applyOrder }

    /// How a message names a record of this type.
    public var noun: String { declaration.noun }
}

/// One record as the cloud stores it: identity, version (HLC) and a JSON payload.
public struct CloudRecord: Hashable, Sendable {
    public var type: RecordType
    public var id: String
    public var hlc: HLC
    public var payload: Data

    public init(type: RecordType, id: String, hlc: HLC, payload: Data) {
        self.type = type
        self.id = id
        self.hlc = hlc
        self.payload = payload
    }
}

/// The merge rules every cloud backend applies, so both behave identically: score events
/// are inserted if absent, mutable records are last-writer-wins by HLC (its device id
/// breaks ties), a frozen handicap is first-writer-wins, and the club settings singleton
/// merges field by field.
public enum CloudMerge {
    /// Records stored once and never replaced: the first copy to arrive is the record.
    public static func isInsertOnly(_ type: RecordType) -> Bool { type.declaration.merge == .insertOnly }

    /// The record to store, or nil when what is stored already says as much.
    public static func merge(existing: CloudRecord?, incoming: CloudRecord) -> CloudRecord? {
        guard let existing else { return incoming }
        let declaration = incoming.type.declaration
        switch declaration.merge {
        case .insertOnly: return nil
        case .lastWriterWins: return incoming.hlc > existing.hlc ? incoming : nil
        case .firstWriterWins: return incoming.hlc < existing.hlc ? incoming : nil
        case .fieldByField: return declaration.merged(existing: existing, incoming: incoming)
        }
    }
}

/// Deterministic JSON for payloads: the same record always has the same bytes.
public enum RecordCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

    public static func encode<T: Encodable>(_ value: T) throws -> Data { try encoder.encode(value) }
    public static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T { try decoder.decode(type, from: data) }
}
