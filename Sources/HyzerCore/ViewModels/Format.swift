import Foundation

/// Ids, dates, durations and sizes as people read them on the pages and in the CLI.
public enum Format {
    public static func date(_ date: Date?) -> String {
        guard let date else { return "" }
        return date.formatted(.dateTime.weekday(.abbreviated).day().month(.abbreviated).hour().minute())
    }

    /// With the year and seconds, for records people compare (backups, store events).
    public static func timestamp(_ date: Date) -> String {
        date.formatted(.dateTime.year().month(.abbreviated).day().hour().minute().second())
    }

    public static func id(_ id: UUID) -> String { id.lowercasedText }

    public static func age(_ seconds: TimeInterval) -> String {
        let seconds = max(0, seconds)
        switch seconds {
        case ..<90: return "\(Int(seconds)) s"
        case ..<(90 * 60): return "\(Int(seconds / 60)) min"
        case ..<(48 * 3600): return "\(Int(seconds / 3600)) h"
        default: return "\(Int(seconds / 86_400)) days"
        }
    }

    public static func bytes(_ count: Int64) -> String {
        ByteCountFormatter.string(fromByteCount: count, countStyle: .file)
    }
}
