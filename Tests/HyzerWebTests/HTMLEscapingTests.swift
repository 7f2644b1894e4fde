import Foundation
import HyzerCore
import Mustache
import Testing

@testable import HyzerWeb

@Suite struct HTMLEscapingTests {
    /// Letters, the five special characters, combining marks, and characters of two, three
    /// and four UTF-8 bytes.
    static let alphabet: [String] = ["a", "Z", " ", "<", ">", "&", "\"", "'", "\u{301}", "\u{308}", "é", "ß", "€", "日", "🥏", "👩‍👧", "\n"]

    static func randomTexts(_ count: Int) -> [String] {
        var generator = SeededGenerator(state: 38)
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "" }.joined()
        }
    }

    /// The five entities back to their bytes, read as bytes (a `String` search would not find
    /// `&#39;` before a combining mark, which makes `;` and the mark one character).
    static func unescaped(_ text: String) -> String {
        let entities: [([UInt8], UInt8)] = [("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"), ("&quot;", "\""), ("&#39;", "'")].map {
            (Array($0.0.utf8), UInt8(ascii: $0.1))
        }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if let (entity, byte) = entities.first(where: { bytes[index...].starts(with: $0.0) }) {
                out.append(byte)
                index += entity.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// No special byte is ever left raw, whatever follows it, and nothing else changes.
    @Test func everySpecialByteIsEscapedAndNothingElseChanges() {
        for text in Self.randomTexts(3_000) {
            let escaped = HTMLEscaping().escapeText(text)
            #expect(!escaped.utf8.contains { [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'")].contains($0) })
            #expect(Self.unescaped(escaped) == text)
        }
    }

    /// On text where swift-mustache sees every special character as one (none is followed by
    /// a combining mark), the answer is its own, byte for byte.
    @Test func ordinaryTextIsEscapedAsSwiftMustacheEscapesIt() throws {
        let template = try MustacheTemplate(string: "{{text}}")
        for text in Self.randomTexts(3_000) where !text.contains("\u{301}") && !text.contains("\u{308}") {
            #expect(HTMLEscaping().escapeText(text) == template.render(["text": text]))
        }
    }

    @Test func aQuoteFollowedByACombiningMarkIsEscaped() throws {
        let text = "x\"\u{301} onfocus=alert(1)"
        let expected = "x&quot;\u{301} onfocus=alert(1)"
        #expect(HTMLEscaping().escapeText(text).utf8.elementsEqual(expected.utf8))
        // What swift-mustache's own escaping makes of it: the quote stays raw.
        #expect(try MustacheTemplate(string: "{{text}}").render(["text": text]).utf8.contains(UInt8(ascii: "\"")))
    }
}
