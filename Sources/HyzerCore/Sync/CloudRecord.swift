import Foundation

/// The kinds of record that travel through the cloud.
public enum RecordType: String, Codable, CaseIterable, Sendable {
    case player, course, round, scoreEvent, clubSettings, event, signature, season, checkIn, frozenHandicap, feePayment

    /// The order a batch applies in, so a round's course and players precede it and a
    /// score its round.
    public var applyOrder: Int {
        switch self {
        case .clubSettings: 0
        case .player: 1
        case .course: 2
        case .season: 3
        case .event: 4
        case .checkIn: 5
        case .round: 6
        case .scoreEvent: 7
        case .signature: 8
        case .frozenHandicap: 9
        case .feePayment: 10
        }
    }
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
    public static func isInsertOnly(_ type: RecordType) -> Bool {
        switch type {
        case .scoreEvent, .signature, .feePayment: true
        case .player, .course, .round, .event, .clubSettings, .season, .checkIn, .frozenHandicap: false
        }
    }

    /// The record to store, or nil when what is stored already says as much.
    public static func merge(existing: CloudRecord?, incoming: CloudRecord) -> CloudRecord? {
        guard let existing else { return incoming }
        switch incoming.type {
        case .scoreEvent, .signature, .feePayment:
            return nil
        case .clubSettings:
            guard let stored = try? RecordCoding.decode(ClubSettingsPayload.self, existing.payload),
                let offered = try? RecordCoding.decode(ClubSettingsPayload.self, incoming.payload)
            else { return incoming.hlc > existing.hlc ? incoming : nil }
            let merged = stored.merged(with: offered)
            guard merged != stored, let payload = try? RecordCoding.encode(merged) else { return nil }
            return CloudRecord(type: .clubSettings, id: incoming.id, hlc: merged.newest, payload: payload)
        case .player, .course, .round, .event, .season, .checkIn:
            return incoming.hlc > existing.hlc ? incoming : nil
        case .frozenHandicap:
            // Frozen once: of two devices that froze a night's handicap, the earlier freeze stands.
            return incoming.hlc < existing.hlc ? incoming : nil
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
