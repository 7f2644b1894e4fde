/// Reads the members of a flat JSON object where its bytes lie, for the payloads a first sync
/// reads a million of: Foundation's `JSONDecoder` costs about 5 µs for a score event, most of
/// the CPU of a pull from PostgreSQL.
///
/// It accepts less than JSON does: values are strings of printable ASCII without escapes,
/// integers, `true`, `false`, `null` and arrays of such strings. Anything else (an escape, a
/// fraction, a nested object, a repeated key, any byte it does not expect) is declined with
/// nil, and the caller falls back to `JSONDecoder`. So whatever it accepts, `JSONDecoder`
/// reads the same way.
struct PlainJSONObject {
    enum Value {
        case string(UnsafeRawBufferPointer)
        case integer(Int)
        case bool(Bool)
        case null
        case strings([UnsafeRawBufferPointer])
    }

    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    /// Calls `member` with each key and value in order; false when the object is declined,
    /// by this reader or by `member`.
    static func read(_ bytes: UnsafeRawBufferPointer, member: (UnsafeRawBufferPointer, Value) -> Bool) -> Bool {
        var reader = PlainJSONObject(bytes: bytes)
        return reader.object(member)
    }

    private init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    private mutating func object(_ member: (UnsafeRawBufferPointer, Value) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if !take(UInt8(ascii: "}")) {
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")), let value = value(), member(key, value) else { return false }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return false }
        }
        skipWhitespace()
        return position == bytes.count
    }

    private mutating func value() -> Value? {
        skipWhitespace()
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "\""): return string().map(Value.string)
        case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return word("null") ? .null : nil
        case UInt8(ascii: "["): return strings().map(Value.strings)
        default: return integer().map(Value.integer)
        }
    }

    private mutating func string() -> UnsafeRawBufferPointer? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return UnsafeRawBufferPointer(rebasing: bytes[start..<(position - 1)])
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            position += 1
        }
        return nil
    }

    private mutating func strings() -> [UnsafeRawBufferPointer]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var result: [UnsafeRawBufferPointer] = []
        if take(UInt8(ascii: "]")) { return result }
        repeat {
            guard let element = string() else { return nil }
            result.append(element)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? result : nil
    }

    /// `-?(0|[1-9][0-9]*)` within Int; "-0" is declined. A fraction or exponent after it is
    /// declined by what must follow a value (`,`, `}` or `]`).
    private mutating func integer() -> Int? {
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        let start = position
        var magnitude = 0
        while position < bytes.count {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Int(digit))
            guard !overflow, !carry else { return nil }
            magnitude = sum
            position += 1
        }
        let length = position - start
        guard length > 0, length == 1 || bytes[start] != UInt8(ascii: "0"), !(negative && magnitude == 0) else { return nil }
        return negative ? -magnitude : magnitude
    }

    private mutating func word(_ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard bytes.count - position >= length else { return false }
        for offset in 0..<length where bytes[position + offset] != text.utf8Start[offset] { return false }
        position += length
        return true
    }

    /// Skips whitespace, then consumes `byte` if it is next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): position += 1
            default: return
            }
        }
    }
}
