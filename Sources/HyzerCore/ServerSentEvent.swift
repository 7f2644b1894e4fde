import Foundation

/// The text of one server-sent event. Multi-line data becomes one `data:` line per line,
/// as the EventSource format requires; a client joins them back with newlines.
public enum ServerSentEvent {
    public static func encode(event: String, id: String, data: String) -> String {
        var text = "event: \(event)\nid: \(id)\n"
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line.hasSuffix("\r") ? line.dropLast() : line)\n"
        }
        return text + "\n"
    }

    /// Drops the indentation and blank lines of a rendered HTML fragment. Every byte of a
    /// live frame is written to every subscriber, and each line costs a `data: ` prefix.
    /// Only for fragments without whitespace-sensitive elements (`pre`, `textarea`).
    public static func compactHTML(_ html: String) -> String {
        html.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.drop(while: { $0 == " " || $0 == "\t" }) }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }

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
