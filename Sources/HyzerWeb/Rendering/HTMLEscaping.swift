import Mustache

/// How every template escapes what it writes with `{{…}}`: `<`, `>`, `&`, `"` and `'` as
/// swift-mustache's HTML content type writes them, found as bytes.
///
/// Two reasons not to use swift-mustache's own. It compares `Character`s, so a quote followed
/// by a combining mark (`"` + U+0301 is one character) is not a quote to it and is written
/// raw: a name like that closes the attribute it is written in, and what follows becomes
/// attributes of the tag. Every byte of the five is escaped here, whatever follows it; UTF-8
/// never uses those bytes inside another character. And it looks each character up in a
/// dictionary: a quarter of a 50-player leaderboard's render.
struct HTMLEscaping: MustacheContentType {
    /// The name templates are parsed with (`TemplateRenderer` puts the pragma in front).
    static let name = "HYZER_HTML"
    static let pragma = "{{% CONTENT_TYPE: \(name)}}"

    static func register() {
        MustacheContentTypes.register(HTMLEscaping(), named: name)
    }

    func escapeText(_ text: String) -> String {
        var text = text
        let escaped = text.withUTF8 { bytes -> String? in
            guard bytes.contains(where: Self.isSpecial) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 32)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
                default: out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        return escaped ?? text
    }

    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "'")
    }
}
