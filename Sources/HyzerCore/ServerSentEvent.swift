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
