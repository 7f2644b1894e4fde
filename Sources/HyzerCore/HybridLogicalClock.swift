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
    /// index readings as plain strings. Written into one buffer: every stored event and
    /// every record of a first sync carries one.
    public var description: String {
        guard wallMillis >= 0 else {
            // Never made by a clock; written as it always was.
            let wall = String(wallMillis)
            let count = String(counter)
            return String(repeating: "0", count: max(0, 15 - wall.count)) + wall + "-"
                + String(repeating: "0", count: max(0, 10 - count.count)) + count + "-" + deviceID.uppercasedText
        }
        return String(unsafeUninitializedCapacity: 19 + 1 + 10 + 1 + 36) { buffer in
            var out = Self.writeDigits(UInt64(wallMillis), width: 15, into: buffer, at: 0)
            buffer[out] = UInt8(ascii: "-")
            out = Self.writeDigits(UInt64(counter), width: 10, into: buffer, at: out + 1)
            buffer[out] = UInt8(ascii: "-")
            return deviceID.writeUppercased(into: buffer, at: out + 1)
        }
    }

    private static func writeDigits(_ value: UInt64, width: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var length = 1
        var rest = value / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        length = max(length, width)
        var remaining = value
        for position in stride(from: start + length - 1, through: start, by: -1) {
            buffer[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
        return start + length
    }

    /// Reads what `description` writes (any number of leading zeros); nil for anything else.
    public init?(_ text: String) {
        var text = text
        guard let value = text.withUTF8({ HLC(bytes: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = value
    }

    init?(bytes: UnsafeRawBufferPointer) {
        var position = 0
        func number(limit: UInt64) -> UInt64? {
            let start = position
            var value: UInt64 = 0
            while position < bytes.count, bytes[position] != UInt8(ascii: "-") {
                let digit = bytes[position] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times.addingReportingOverflow(UInt64(digit))
                guard !overflow, !carry, sum <= limit else { return nil }
                value = sum
                position += 1
            }
            guard position > start, position < bytes.count else { return nil }
            position += 1
            return value
        }
        guard let wall = number(limit: UInt64(Int64.max)), let count = number(limit: UInt64(UInt32.max)),
            let device = UUID(hexText: UnsafeRawBufferPointer(rebasing: bytes[position...]))
        else { return nil }
        self.init(wallMillis: Int64(wall), counter: UInt32(count), deviceID: device)
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
        self.latest =
            latest.map { HLC(wallMillis: $0.wallMillis, counter: $0.counter, deviceID: deviceID) }
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
