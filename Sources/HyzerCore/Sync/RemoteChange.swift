import Foundation

/// A cloud record read into the value it carries, or a removal. Reading is pure, so a pull
/// reads the next page while the store writes the current one.
public struct RemoteChange: Sendable {
    public let type: RecordType
    /// The id of the cloud record it came from.
    public let recordID: String
    public let hlc: HLC
    /// The value; nil when the record was removed on another device (`RemovalPayload`).
    public let value: (any SyncedRecord)?

    public static func record(_ value: any SyncedRecord) -> RemoteChange {
        RemoteChange(type: Swift.type(of: value).recordType, recordID: value.recordID, hlc: value.recordVersion, value: value)
    }

    /// A player, course, event, round or season deleted on another device.
    public static func removed(_ type: RecordType, id: String, hlc: HLC) -> RemoteChange {
        RemoteChange(type: type, recordID: id, hlc: hlc, value: nil)
    }

    /// The value, or why it cannot be had: the payload is malformed, breaks the domain's
    /// rules, or names another id than its record. Such a record is never half-applied.
    public static func read(_ record: CloudRecord) throws(RecordUnreadable) -> RemoteChange {
        let declaration = record.type.declaration
        if declaration.removable, RemovalPayload.isRemoval(record.payload) {
            guard let id = UUID(text: record.id) else { throw .otherID(record.id) }
            return .removed(record.type, id: id.lowercasedText, hlc: record.hlc)
        }
        return .record(try declaration.read(record))
    }
}
