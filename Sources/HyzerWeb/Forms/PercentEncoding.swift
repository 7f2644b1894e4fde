/// The hex digits of `%XX` escapes, for the checks that read a request's bytes themselves
/// (a form body's UTF-8, a path's control characters).
enum PercentEncoding {
    static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The byte `%` + `high` + `low` stands for, or nil when they are not two hex digits.
    static func byte(_ high: UInt8, _ low: UInt8) -> UInt8? {
        guard let high = digit(high), let low = digit(low) else { return nil }
        return high << 4 | low
    }
}
