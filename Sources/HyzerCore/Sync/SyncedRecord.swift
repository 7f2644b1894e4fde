import Foundation

/// How the cloud and every device settle two versions of one record.
public enum MergeRule: Sendable, Equatable {
    /// Stored once and never replaced: the first copy to arrive is the record.
    case insertOnly
    /// The newer version (by HLC, its device id breaking ties) replaces the older.
    case lastWriterWins
    /// The older version stands (a handicap frozen on two devices: the earlier freeze).
    case firstWriterWins
    /// Merged field by field, each field last-writer-wins (`merged(existing:incoming:)`).
    case fieldByField
}

/// One synced record type, declared once, beside its domain value and payload: its name on
/// the wire, its cloud form, how versions merge, and where it applies in a batch. Everything
/// that must know every type goes through `RecordType.declaration` (and, in the store,
/// `RecordType.stored`), never a switch of its own.
public protocol SyncedRecord: Sendable {
    associatedtype Payload: Codable & Sendable
    static var recordType: RecordType { get }
    /// How a message names a record of this type ("Fee payment").
    static var noun: String { get }
    static var merge: MergeRule { get }
    /// Where a pulled batch applies it: a round's course and players before it, a score
    /// after its round.
    static var applyOrder: Int { get }
    /// Removed on one device, removed on every device (a tombstone travels). False for
    /// append-only records and for those that always exist.
    static var removable: Bool { get }
    var recordID: String { get }
    /// The version: an HLC, compared under `merge`.
    var recordVersion: HLC { get }
    var recordPayload: Payload { get }
    /// The value `payload` describes at `version`; nil when it breaks the domain's rules.
    static func value(_ payload: Payload, version: HLC) -> Self?
    /// The record to store when `incoming` meets `existing` under a `fieldByField` rule.
    static func merged(existing: CloudRecord, incoming: CloudRecord) -> CloudRecord?
    /// The value a cloud record of this type carries, or why it cannot be had.
    static func read(_ record: CloudRecord) throws(RecordUnreadable) -> Self
}

extension SyncedRecord {
    public static var removable: Bool { false }

    public static func merged(existing: CloudRecord, incoming: CloudRecord) -> CloudRecord? {
        incoming.hlc > existing.hlc ? incoming : nil
    }

    /// The record as it travels.
    public func cloudRecord() throws -> CloudRecord {
        CloudRecord(type: Self.recordType, id: recordID, hlc: recordVersion, payload: try RecordCoding.encode(recordPayload))
    }

    public static func read(_ record: CloudRecord) throws(RecordUnreadable) -> Self { try readDecoding(record) }

    /// `read` by the payload's `Decodable` conformance.
    public static func readDecoding(_ record: CloudRecord) throws(RecordUnreadable) -> Self {
        let payload: Payload
        do { payload = try RecordCoding.decode(Payload.self, record.payload) } catch { throw .decoding(error) }
        guard let value = value(payload, version: record.hlc) else { throw .rules }
        guard value.recordID == record.id else { throw .otherID(record.id) }
        return value
    }
}
