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

    /// A calendar day ("2026-12-03") in words, "Thursday 3 Dec": the day the club chose, the
    /// same whatever the server's time zone.
    public static func day(_ iso: String) -> String? {
        let parts = iso.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        guard parts.count == 3, let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else { return nil }
        var style = Date.FormatStyle.dateTime.weekday(.wide).day().month(.abbreviated)
        style.timeZone = .gmt
        return date.formatted(style)
    }

    /// Today as "YYYY-MM-DD" in the server's time zone: a date field's suggestion.
    /// Built from calendar parts: Foundation's ISO 8601 style appends a zone ("Z") on Linux,
    /// which a date field refuses.
    public static func isoDay(_ date: Date, in zone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let (year, month, day) = (parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }

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
