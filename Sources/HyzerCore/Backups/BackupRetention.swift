import Foundation

/// Which backups to keep: the newest `recent`, plus the newest of each UTC day for `days`
/// days, plus failed ones for as long as that (kept for inspection). The newest verified
/// backup is never deleted, whatever its age.
public struct BackupRetention: Sendable, Equatable {
    public var recent: Int
    public var days: Int

    public init(recent: Int = 24, days: Int = 30) {
        self.recent = recent
        self.days = days
    }

    public struct Entry: Sendable, Equatable {
        public var id: String
        public var createdAt: Date
        public var verified: Bool

        public init(id: String, createdAt: Date, verified: Bool) {
            self.id = id
            self.createdAt = createdAt
            self.verified = verified
        }
    }

    /// The ids to keep; everything else may be deleted.
    public func keep(_ entries: [Entry], now: Date) -> Set<String> {
        let newestFirst = entries.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
        let verified = newestFirst.filter(\.verified)
        var keep = Set(verified.prefix(recent).map(\.id))
        if let newest = verified.first { keep.insert(newest.id) }
        let horizon = now.addingTimeInterval(-Double(days) * 86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        var daysSeen = Set<DateComponents>()
        for entry in verified where entry.createdAt >= horizon {
            if daysSeen.insert(calendar.dateComponents([.year, .month, .day], from: entry.createdAt)).inserted {
                keep.insert(entry.id)
            }
        }
        for entry in newestFirst where !entry.verified && entry.createdAt >= horizon {
            keep.insert(entry.id)
        }
        return keep
    }
}
