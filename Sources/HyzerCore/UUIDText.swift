import Foundation

/// UUID text without Foundation's formatter and scanner, which go through printf and scanf
/// on Linux. Every id crosses between UUID and text on each store read and write, and a
/// first sync applies a hundred thousand events.
extension UUID {
    private static let lowerDigits = Array("0123456789abcdef".utf8)
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    /// "1b4e28ba-2fa1-11d2-883f-0016d3cca427": how ids are stored and shown.
    public var lowercasedText: String { text(Self.lowerDigits) }

    /// The same digits upper case, like `uuidString`.
    public var uppercasedText: String { text(Self.upperDigits) }

    private func text(_ digits: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: 36) { buffer in write(digits, into: buffer, at: 0) }
    }

    /// Writes the 36 characters at `start`; returns the position after them.
    func writeUppercased(into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        write(Self.upperDigits, into: buffer, at: start)
    }

    private func write(_ digits: [UInt8], into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        withUnsafeBytes(of: uuid) { raw in
            var out = start
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    buffer[out] = UInt8(ascii: "-")
                    out += 1
                }
                buffer[out] = digits[Int(byte >> 4)]
                buffer[out + 1] = digits[Int(byte & 0x0F)]
                out += 2
            }
            return out
        }
    }

    /// Reads the 8-4-4-4-12 hex form in either case; nil for anything else.
    public init?(text: String) {
        var text = text
        guard let value = text.withUTF8({ UUID(hexText: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = value
    }

    /// The same, from bytes, so a payload's ids are read where they lie.
    public init?(hexText bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 36 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let valid = withUnsafeMutableBytes(of: &value) { out -> Bool in
            var position = 0
            for index in 0..<16 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard bytes[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = Self.hexValue(bytes[position]), let low = Self.hexValue(bytes[position + 1]) else { return false }
                out[index] = high << 4 | low
                position += 2
            }
            return true
        }
        guard valid else { return nil }
        self.init(uuid: value)
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension UUID {
    /// 00000000-0000-0000-0000-000000000000: never an id a client made for itself (a score's or
    /// an outbox entry's), since every client that sent it would name the same record.
    public static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
