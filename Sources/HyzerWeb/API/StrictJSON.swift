import Foundation
import Hummingbird
import NIOCore

/// The API's one rule for JSON bodies: typed, and nothing guessed.
/// - The body is one JSON value in UTF-8; a type that does not match is a 422 naming the field.
/// - A key given twice in one object is refused (400): no reader may pick a different one.
/// - Numbers are whole: every number the API takes is a count, so `3.0` or `3e0` is a 422,
///   as is a number sent as a string (`"3"`, `" 3 "`, `"+4"`).
/// - Keys the API does not know are ignored, so a newer client still talks to this server.
enum StrictJSON {
    static func decode<T: Decodable>(_ type: T.Type, from body: ByteBuffer) throws -> T {
        let bytes = Array(body.readableBytesView)
        let value: T
        do {
            value = try JSONCoding.decoder.decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            // A fraction where a count belongs is named as such, not as a wrong type.
            if case .fraction(let path)? = Scanner.check(bytes) { throw fraction(path) }
            throw error.problem
        }
        switch Scanner.check(bytes) {
        case .none:
            return value
        case .duplicate(let path):
            throw Problem(status: .badRequest, title: "Malformed body", detail: "The key \(path) appears twice in the body. Send each key once.")
        case .fraction(let path):
            throw fraction(path)
        }
    }

    private static func fraction(_ path: String) -> Problem {
        Problem(invalid: .init(path, "\(path) must be a whole number, without a fraction or exponent."))
    }

    enum Finding: Equatable {
        case duplicate(String)
        case fraction(String)
    }

    /// Walks a document the decoder already accepted, keeping the path to each value.
    struct Scanner {
        private enum Container {
            case object(keys: Set<String>, current: String?)
            case array(index: Int)
        }

        static func check(_ bytes: [UInt8]) -> Finding? {
            var stack: [Container] = []
            var expectingKey = false
            var index = 0

            func path(_ last: String? = nil) -> String {
                var text = ""
                for container in stack {
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
                        let raw = Array(bytes[start...min(index, bytes.count - 1)])
                        let key = (try? JSONDecoder().decode(String.self, from: Data(raw))) ?? String(decoding: raw, as: UTF8.self)
                        if !keys.insert(key).inserted { return .duplicate(path(key)) }
                        stack[stack.count - 1] = .object(keys: keys, current: key)
                        expectingKey = false
                    }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    var fractional = false
                    while index < bytes.count, let next = Optional(bytes[index]),
                          next == UInt8(ascii: "-") || next == UInt8(ascii: "+") || next == UInt8(ascii: ".")
                          || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
                        if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { fractional = true }
                        index += 1
                    }
                    if fractional { return .fraction(path()) }
                    continue
                default:
                    break
                }
                index += 1
            }
            return nil
        }
    }
}
