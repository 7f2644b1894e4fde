import Foundation

/// A hybrid logical clock reading: wall time, a counter for events within the same
/// millisecond (or while the wall clock lags a received reading), and the device that made it.
/// Ordering last-writer-wins merges by HLC instead of wall time keeps a device with a
/// skewed clock from silently winning or losing edits.
public struct HLC: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var wallMillis: Int64
    public var counter: UInt32
    public var deviceID: UUID

    public init(wallMillis: Int64, counter: UInt32, deviceID: UUID) {
        self.wallMillis = wallMillis
        self.counter = counter
        self.deviceID = deviceID
    }

    public static func < (lhs: HLC, rhs: HLC) -> Bool {
        if lhs.wallMillis != rhs.wallMillis { return lhs.wallMillis < rhs.wallMillis }
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        return lhs.deviceID.lowercasedText < rhs.deviceID.lowercasedText
    }

    /// Fixed-width text whose byte order is the clock order, so stores can compare and
    /// index readings as plain strings.
    public var description: String {
        let wall = String(wallMillis)
        let count = String(counter)
        return String(repeating: "0", count: max(0, 15 - wall.count)) + wall + "-"
            + String(repeating: "0", count: max(0, 10 - count.count)) + count + "-"
            + deviceID.uppercasedText
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 2)
        guard parts.count == 3,
              let wall = Int64(parts[0]), wall >= 0,
              let count = UInt32(parts[1]),
              let device = UUID(text: String(parts[2]))
        else { return nil }
        self.init(wallMillis: wall, counter: count, deviceID: device)
    }

    public var date: Date { Date(timeIntervalSince1970: Double(wallMillis) / 1000) }
}

extension HLC: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = HLC(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an HLC: \(text)"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The clock state of one device. Pure: the caller passes the wall time in, which keeps
/// it testable and lets the store decide where the state lives.
public struct HybridClock: Sendable {
    public let deviceID: UUID
    public private(set) var latest: HLC

    public init(deviceID: UUID, latest: HLC? = nil) {
        self.deviceID = deviceID
        self.latest = latest.map { HLC(wallMillis: $0.wallMillis, counter: $0.counter, deviceID: deviceID) }
            ?? HLC(wallMillis: 0, counter: 0, deviceID: deviceID)
    }

    /// A reading for a local event: never earlier than anything this device has seen.
    public mutating func tick(wallMillis: Int64) -> HLC {
        if wallMillis > latest.wallMillis {
            latest = HLC(wallMillis: wallMillis, counter: 0, deviceID: deviceID)
        } else {
            latest = HLC(wallMillis: latest.wallMillis, counter: latest.counter &+ 1, deviceID: deviceID)
        }
        return latest
    }

    /// Advances past a reading received from another device, so the next local event
    /// orders after everything this device has applied.
    public mutating func receive(_ remote: HLC, wallMillis: Int64) {
        let wall = max(wallMillis, latest.wallMillis, remote.wallMillis)
        let counter: UInt32
        if wall == latest.wallMillis && wall == remote.wallMillis {
            counter = max(latest.counter, remote.counter) &+ 1
        } else if wall == latest.wallMillis {
            counter = latest.counter &+ 1
        } else if wall == remote.wallMillis {
            counter = remote.counter &+ 1
        } else {
            counter = 0
        }
        latest = HLC(wallMillis: wall, counter: counter, deviceID: deviceID)
    }
}

extension Date {
    public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
}
