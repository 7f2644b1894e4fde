import Foundation

/// Durations and sizes as people read them on the admin page and in the CLI.
public enum Format {
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
