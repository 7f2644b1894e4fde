import Foundation
import Hummingbird
import NIOCore

/// The API's one rule for JSON bodies: typed, and nothing guessed.
/// - The body is one JSON value in UTF-8; a type that does not match is a 422 naming the field.
/// - A key given twice in one object is refused (400): no reader may pick a different one.
/// - Numbers are whole: every number the API takes is a count, so `3.0` or `3e0` is a 422,
///   as is a number sent as a string (`"3"`, `" 3 "`, `"+4"`).
/// - Keys the API does not know are ignored, whatever they hold, so a newer client still
///   talks to this server.
enum StrictJSON {
    static func decode<T: Decodable>(_ type: T.Type, from body: ByteBuffer) throws -> T {
        let bytes = Array(body.readableBytesView)
        let value: T
        do {
            value = try JSONCoding.decoder.decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            // A fraction where a count belongs is named as such, not as a wrong type.
            if let path = try knownFraction(in: bytes, as: type) { throw fraction(path) }
            throw error.problem
        }
        let findings = Scanner.findings(bytes)
        if let key = findings.duplicate {
            throw Problem(status: .badRequest, title: "Malformed body", detail: "The key \(key) appears twice in the body. Send each key once.")
        }
        if let path = try knownFraction(in: bytes, as: type, findings: findings) { throw fraction(path) }
        return value
    }

    /// The first fractional number the type actually reads. To tell a field the type reads
    /// from a key it ignores, the number is replaced by a string: only a field the type
    /// reads then fails to decode.
    private static func knownFraction<T: Decodable>(in bytes: [UInt8], as type: T.Type, findings: Scanner.Findings? = nil) throws -> String? {
        let fractions = (findings ?? Scanner.findings(bytes)).fractions
        func reads(_ numbers: some Collection<Scanner.Number>) -> Bool {
            var probe = bytes
            // From the end, so the earlier ranges stay where they are.
            for number in numbers.reversed() { probe.replaceSubrange(number.range, with: Array("\"\"".utf8)) }
            return (try? JSONCoding.decoder.decode(type, from: Data(probe))) == nil
        }
        // One decode per number, for the few a real body has; a body stuffed with them is
        // probed once as a whole, so it costs two decodes, not thousands.
        if fractions.count > 8 { return reads(fractions) ? fractions.first?.path : nil }
        return fractions.first { reads(CollectionOfOne($0)) }?.path
    }

    private static func fraction(_ path: String) -> Problem {
        Problem(invalid: .init(path, "\(path) must be a whole number, without a fraction or exponent."))
    }

    /// Walks a document, keeping the path to each value. Robust to any bytes: a document
    /// the decoder refused may still be scanned, and nothing here may trap on it.
    struct Scanner {
        struct Number {
            var path: String
            var range: Range<Int>
        }

        struct Findings {
            var duplicate: String?
            var fractions: [Number] = []
        }

        private enum Container {
            case object(keys: Set<String>, current: String?)
            case array(index: Int)
        }

        static func findings(_ bytes: [UInt8]) -> Findings {
            var result = Findings()
            var stack: [Container] = []
            var expectingKey = false
            var index = 0

            func path(_ containers: ArraySlice<Container>, then last: String? = nil) -> String {
                var text = ""
                for container in containers {
                    switch container {
                    case .object(_, let current?): text += text.isEmpty ? current : ".\(current)"
                    case .object: break
                    case .array(let position): text += "[\(position)]"
                    }
                }
                if let last { text += text.isEmpty ? last : ".\(last)" }
                return text
            }

            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "{"):
                    stack.append(.object(keys: [], current: nil))
                    expectingKey = true
                case UInt8(ascii: "["):
                    stack.append(.array(index: 0))
                    expectingKey = false
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard !stack.isEmpty else { return result }
                    stack.removeLast()
                    expectingKey = false
                case UInt8(ascii: ","):
                    if case .array(let position) = stack.last {
                        stack[stack.count - 1] = .array(index: position + 1)
                        expectingKey = false
                    } else {
                        expectingKey = true
                    }
                case UInt8(ascii: "\""):
                    let start = index
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    if expectingKey, case .object(var keys, _) = stack.last {
                        let raw = Array(bytes[start..<min(index + 1, bytes.count)])
                        let key = (try? JSONDecoder().decode(String.self, from: Data(raw))) ?? String(decoding: raw, as: UTF8.self)
                        if !keys.insert(key).inserted, result.duplicate == nil {
                            result.duplicate = path(stack.dropLast(), then: key)
                        }
                        stack[stack.count - 1] = .object(keys: keys, current: key)
                        expectingKey = false
                    }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let start = index
                    var fractional = false
                    while index < bytes.count, case let next = bytes[index],
                          next == UInt8(ascii: "-") || next == UInt8(ascii: "+") || next == UInt8(ascii: ".")
                          || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
                        if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { fractional = true }
                        index += 1
                    }
                    if fractional { result.fractions.append(Number(path: path(stack[...]), range: start..<index)) }
                    continue
                default:
                    break
                }
                index += 1
            }
            return result
        }
    }
}
