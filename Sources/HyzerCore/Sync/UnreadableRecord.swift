import Foundation

/// A cloud record this device cannot read: a type it does not know (a newer device wrote
/// it), a version or payload it cannot decode, or a value that breaks the domain's rules.
/// It is kept as the cloud had it, with the reason, never dropped: a build that reads it
/// applies it later, or an admin dismisses it.
public struct UnreadableRecord: Error, Sendable, Hashable {
    /// The record's type as the cloud names it (perhaps one this build does not know).
    public var type: String
    public var id: String
    /// The record's version as the cloud has it (perhaps unreadable itself).
    public var hlc: String
    public var payload: Data
    public var reason: String

    public init(type: String, id: String, hlc: String, payload: Data, reason: String) {
        self.type = type
        self.id = id
        self.hlc = hlc
        self.payload = payload
        self.reason = reason
    }

    public init(_ record: CloudRecord, reason: String) {
        self.init(type: record.type.rawValue, id: record.id, hlc: record.hlc.description, payload: record.payload, reason: reason)
    }

    public static func unknownType(_ type: String) -> String {
        "This version of Hyzer does not know the record type \"\(type)\": a newer version wrote it. Upgrade to apply it."
    }

    /// Reads a row as the cloud stores it: a readable record, or what cannot be read and why.
    /// `unknown` are types to treat as unknown (fault tests: a build older than the writer).
    public static func read(type: String, id: String, hlc: String, payload: Data, unknown: Set<RecordType> = []) -> Result<CloudRecord, Self> {
        guard let known = RecordType(rawValue: type), !unknown.contains(known) else {
            return .failure(Self(type: type, id: id, hlc: hlc, payload: payload, reason: unknownType(type)))
        }
        guard let version = HLC(hlc) else {
            return .failure(Self(type: type, id: id, hlc: hlc, payload: payload, reason: "Its version \"\(hlc)\" is not a clock reading."))
        }
        return .success(CloudRecord(type: known, id: id, hlc: version, payload: payload))
    }
}

/// Why a record of a known type cannot be applied.
public struct RecordUnreadable: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }

    /// A decoding error as one line a club's admin can act on.
    static func decoding(_ error: any Error) -> Self {
        guard let error = error as? DecodingError else { return Self("Its payload cannot be read: \(error)") }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return Self("Its payload is not JSON.")
        case .dataCorrupted(let context):
            return Self("Its payload's field \(path(context)) is not valid: \(context.debugDescription)")
        case .keyNotFound(let key, let context):
            let within = path(context)
            return Self("Its payload lacks the field \(within.isEmpty ? key.stringValue : within + "." + key.stringValue).")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return Self("Its payload's field \(path(context)) has the wrong kind of value.")
        @unknown default:
            return Self("Its payload cannot be read: \(error)")
        }
    }

    static let rules = Self("Its payload breaks the domain's rules (a value out of range or a missing part).")
    static func otherID(_ id: String) -> Self { Self("Its payload describes another record than \(id).") }
}
