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
        // Scanned first, and cheaply whatever the body holds: what is not plain UTF-8 JSON,
        // or holds a key twice, is refused before the decoder spends anything on it.
        let findings = Scanner.findings(bytes)
        if let reason = findings.malformed {
            throw Problem(status: .badRequest, title: "Malformed body", detail: "The body is not a JSON document: \(reason).")
        }
        if let key = findings.duplicate {
            throw Problem(status: .badRequest, title: "Malformed body", detail: "The key \(key) appears twice in the body. Send each key once.")
        }
        let value: T
        do {
            value = try JSONCoding.decoder.decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            // A fraction where a count belongs is named as such, not as a wrong type — but
            // only when it is the reason: with every fraction made whole the body must decode.
            if !findings.fractions.isEmpty, decodes(type, bytes, replacing: findings.fractions, with: "0"),
                let path = knownFraction(in: bytes, as: type, findings: findings)
            {
                throw fraction(path)
            }
            throw error.problem
        }
        if let path = knownFraction(in: bytes, as: type, findings: findings) { throw fraction(path) }
        return value
    }

    private static func decodes<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], replacing numbers: some Collection<Scanner.Number>, with text: String)
        -> Bool
    {
        var probe = bytes
        // From the end, so the earlier ranges stay where they are.
        for number in numbers.reversed() { probe.replaceSubrange(number.range, with: Array(text.utf8)) }
        return (try? JSONCoding.decoder.decode(type, from: Data(probe))) != nil
    }

    /// The first fractional number the type actually reads. To tell a field the type reads
    /// from a key it ignores, the number is replaced by a string: only a field the type
    /// reads then fails to decode.
    private static func knownFraction<T: Decodable>(in bytes: [UInt8], as type: T.Type, findings: Scanner.Findings) -> String? {
        let fractions = findings.fractions
        guard !fractions.isEmpty else { return nil }
        // One decode per number for the few a real body has; a body stuffed with them is
        // probed once as a whole, so it costs two decodes, not thousands.
        if fractions.count > Scanner.notedFractions {
            return decodes(type, bytes, replacing: fractions, with: "\"\"") ? nil : (fractions.first?.path ?? "a number")
        }
        return fractions.first { !decodes(type, bytes, replacing: CollectionOfOne($0), with: "\"\"") }.map { $0.path ?? "a number" }
    }

    private static func fraction(_ path: String) -> Problem {
        Problem(invalid: .init(path, "\(path) must be a whole number, without a fraction or exponent."))
    }

    /// Walks a document once, in time proportional to its size whatever it holds: paths are
    /// built only for what is reported, numbers are noted up to a few, and nesting stops at a
    /// depth no API body comes near.
    struct Scanner {
        static let maxDepth = 32
        /// Fractions named and probed one by one; past this many, the whole lot is probed at once.
        static let notedFractions = 8

        struct Number {
            /// Built for the first few only.
            var path: String?
            var range: Range<Int>
        }

        struct Findings {
            var malformed: String?
            var duplicate: String?
            var fractions: [Number] = []
        }

        private enum Container {
            case object(current: String?)
            case array(index: Int)
        }

        static func findings(_ bytes: [UInt8]) -> Findings {
            var result = Findings()
            guard String(validating: bytes, as: UTF8.self) != nil, !bytes.contains(0) else {
                result.malformed = "it must be UTF-8 text"
                return result
            }
            var stack: [Container] = []
            // Beside the stack, so inserting a key never copies a set.
            var keySets: [Set<String>] = []
            var expectingKey = false
            var lastSignificant: UInt8 = 0
            var index = 0

            func path(_ containers: ArraySlice<Container>, then last: String? = nil) -> String {
                func shown(_ key: String) -> String { key.count > 64 ? String(key.prefix(64)) + "…" : key }
                var text = ""
                for container in containers {
                    switch container {
                    case .object(let current?): text += text.isEmpty ? shown(current) : ".\(shown(current))"
                    case .object: break
                    case .array(let position): text += "[\(position)]"
                    }
                }
                if let last { text += text.isEmpty ? shown(last) : ".\(shown(last))" }
                return text
            }

            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard stack.count < maxDepth else {
                        result.malformed = "it is nested deeper than \(maxDepth) levels"
                        return result
                    }
                    stack.append(byte == UInt8(ascii: "{") ? .object(current: nil) : .array(index: 0))
                    if byte == UInt8(ascii: "{") { keySets.append([]) }
                    expectingKey = byte == UInt8(ascii: "{")
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard !stack.isEmpty else { return result }
                    if lastSignificant == UInt8(ascii: ",") {
                        result.malformed = "a comma comes before a closing bracket"
                        return result
                    }
                    if case .object = stack.removeLast() { keySets.removeLast() }
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
                    if expectingKey, case .object = stack.last, !keySets.isEmpty {
                        let raw = bytes[start..<min(index + 1, bytes.count)]
                        // Escapes (`\u0068ole` is `hole`) are decoded; plain keys are read as they are.
                        let key =
                            raw.contains(UInt8(ascii: "\\"))
                            ? (try? JSONDecoder().decode(String.self, from: Data(raw))) ?? String(decoding: raw, as: UTF8.self)
                            : String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
                        if !keySets[keySets.count - 1].insert(key).inserted, result.duplicate == nil {
                            result.duplicate = path(stack.dropLast(), then: key)
                        }
                        stack[stack.count - 1] = .object(current: key)
                        expectingKey = false
                    }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let start = index
                    var fractional = false
                    while index < bytes.count, case let next = bytes[index],
                        next == UInt8(ascii: "-") || next == UInt8(ascii: "+") || next == UInt8(ascii: ".")
                            || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next)
                    {
                        if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { fractional = true }
                        index += 1
                    }
                    lastSignificant = UInt8(ascii: "0")
                    if fractional {
                        let named = result.fractions.count < notedFractions
                        result.fractions.append(Number(path: named ? path(stack[...]) : nil, range: start..<index))
                    }
                    continue
                default:
                    break
                }
                if ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains(byte) { lastSignificant = byte }
                index += 1
            }
            return result
        }
    }
}
