/// Request targets and header values read as bytes, in place. Every request passes through
/// these reads; walking a `String` (its `UTF8View` included, which checks each index) cost
/// a few thousand instructions a request where a buffer costs a few hundred.
enum HeaderBytes {
    typealias Part = Slice<UnsafeBufferPointer<UInt8>>

    /// `body` over the text's UTF-8, without copying it when it is already contiguous (as
    /// every string NIO decodes is).
    static func with<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let done = text.utf8.withContiguousStorageIfAvailable(body) { return done }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// The bytes before the first `?`: the path of a request target.
    static func path(of target: UnsafeBufferPointer<UInt8>) -> Part {
        target[..<(target.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex)]
    }

    /// Each part of a `separator`-separated list, blanks around it trimmed (before it only,
    /// unless `trailing`); stops when `body` says so and returns false then.
    @discardableResult
    static func forEach(in bytes: Part, separatedBy separator: UInt8, trailing: Bool = true, _ body: (Part) -> Bool) -> Bool {
        var start = bytes.startIndex
        while start <= bytes.endIndex {
            let end = bytes[start...].firstIndex(of: separator) ?? bytes.endIndex
            if !body(trailing ? trimmed(bytes[start..<end]) : bytes[start..<end].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
                return false
            }
            start = end + 1
        }
        return true
    }

    static func trimmed(_ bytes: Part) -> Part {
        var part = bytes
        while let first = part.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { part = part.dropFirst() }
        while let last = part.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { part = part.dropLast() }
        return part
    }

    /// Whether the bytes are `lowercase` in any ASCII case.
    static func equals(_ bytes: Part, caseInsensitive lowercase: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        return bytes.count == expected.count
            && zip(bytes, expected).allSatisfy { byte, wanted in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 == wanted : byte == wanted
            }
    }

    static func equals(_ bytes: Part, _ text: StaticString) -> Bool {
        bytes.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
