import Foundation

/// The text of one server-sent event. Multi-line data becomes one `data:` line per line,
/// as the EventSource format requires; a client joins them back with newlines.
public enum ServerSentEvent {
    /// Every line break of `data` (LF, CRLF or a lone CR, as the EventSource format reads
    /// them) starts a new `data:` line. Read as UTF-8 bytes: a frame is encoded once per change
    /// and can be tens of kilobytes, which a walk by `Character` made cost ~400 instructions a byte.
    public static func encode(event: String, id: String, data: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.utf8.count + event.utf8.count + id.utf8.count + 64)
        bytes += "event: ".utf8
        bytes += event.utf8
        bytes += "\nid: ".utf8
        bytes += id.utf8
        bytes.append(newline)
        var data = data
        data.withUTF8 { text in
            var start = 0
            var index = 0
            func line(to end: Int) {
                bytes += "data: ".utf8
                bytes += text[start..<end]
                bytes.append(newline)
            }
            while index < text.count {
                let byte = text[index]
                guard byte == newline || byte == carriageReturn else {
                    index += 1
                    continue
                }
                line(to: index)
                index += byte == carriageReturn && index + 1 < text.count && text[index + 1] == newline ? 2 : 1
                start = index
            }
            line(to: text.count)
        }
        bytes.append(newline)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Drops the indentation and blank lines of a rendered HTML fragment. Every byte of a
    /// live frame is written to every subscriber, and each line costs a `data: ` prefix.
    /// Only for fragments without whitespace-sensitive elements (`pre`, `textarea`).
    public static func compactHTML(_ html: String) -> String {
        var html = html
        return html.withUTF8 { text in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.count)
            var index = 0
            while index < text.count {
                var end = index
                while end < text.count, text[end] != newline { end += 1 }
                var first = index
                while first < end, text[first] == space || text[first] == tab { first += 1 }
                var last = end
                while last > first, text[last - 1] == carriageReturn { last -= 1 }
                if first < last {
                    if !bytes.isEmpty { bytes.append(newline) }
                    bytes += text[first..<last]
                }
                index = end + 1
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    /// Tells a client how long to wait before reconnecting.
    public static func retry(milliseconds: Int) -> String {
        "retry: \(milliseconds)\n\n"
    }

    /// A comment line: ignored by clients, but keeps proxies and idle timers from closing the stream.
    public static let heartbeat = ": heartbeat\n\n"

    /// A `Last-Event-ID` value as this server issues it (a non-negative version number),
    /// or nil for anything else, which callers then ignore.
    public static func lastEventVersion(_ text: String?) -> Int? {
        guard let text, let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else { return nil }
        return value
    }
}
