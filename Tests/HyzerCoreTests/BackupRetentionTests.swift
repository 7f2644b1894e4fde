import Foundation
import HyzerCore
import Testing

@Suite struct BackupRetentionTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21, a UTC day boundary is crossed hourly

    /// A month of hourly backups with the rule applied after each one, as the scheduler
    /// does: what is left is exactly the newest 24 plus the newest of each of the last 30
    /// UTC days.
    @Test func aSimulatedMonthKeepsTheLastTwentyFourAndOneADay() {
        let retention = BackupRetention(recent: 24, days: 30)
        var folder: [BackupRetention.Entry] = []
        var now = Self.start
        for hour in 0..<(45 * 24) {
            now = Self.start.addingTimeInterval(Double(hour) * 3600)
            folder.append(.init(id: "b\(hour)", createdAt: now, verified: true))
            let keep = retention.keep(folder, now: now)
            folder.removeAll { !keep.contains($0.id) }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let hours = (0..<(45 * 24)).map { Self.start.addingTimeInterval(Double($0) * 3600) }
        let newest24 = Set(hours.suffix(24))
        let horizon = now.addingTimeInterval(-30 * 86_400)
        let perDay = Dictionary(grouping: hours.filter { $0 >= horizon }) { calendar.startOfDay(for: $0) }.values.compactMap { $0.max() }
        let expected = newest24.union(perDay)
        #expect(Set(folder.map(\.createdAt)) == expected)
        #expect(folder.count == expected.count)
        #expect(folder.count < 24 + 32, "a month of hourly backups stays small: \(folder.count)")
    }

    @Test func theNewestVerifiedBackupIsNeverDeletedHoweverOld() {
        let old = BackupRetention.Entry(id: "old", createdAt: Self.start, verified: true)
        let failed = BackupRetention.Entry(id: "failed", createdAt: Self.start.addingTimeInterval(86_400 * 90), verified: false)
        let keep = BackupRetention(recent: 24, days: 30).keep([old, failed], now: Self.start.addingTimeInterval(86_400 * 100))
        #expect(keep.contains("old"))
        // Failed backups are kept for inspection within the window, and never count as "newest".
        #expect(keep.contains("failed"))
        let later = BackupRetention(recent: 24, days: 30).keep([old, failed], now: Self.start.addingTimeInterval(86_400 * 200))
        #expect(later == ["old"])
    }

    @Test func failedBackupsDoNotTakeTheRecentSlots() {
        let entries =
            (0..<5).map { BackupRetention.Entry(id: "v\($0)", createdAt: Self.start.addingTimeInterval(Double($0) * 60), verified: true) }
            + (0..<5).map { BackupRetention.Entry(id: "f\($0)", createdAt: Self.start.addingTimeInterval(Double(10 + $0) * 60), verified: false) }
        let keep = BackupRetention(recent: 3, days: 0).keep(entries, now: Self.start.addingTimeInterval(3600))
        #expect(keep == ["v4", "v3", "v2"])
    }

    @Test func intervalsReadAsPeopleWriteThem() throws {
        #expect(try BackupSchedule.interval("1h") == .seconds(3600))
        #expect(try BackupSchedule.interval("30m") == .seconds(1800))
        #expect(try BackupSchedule.interval("2d") == .seconds(172_800))
        #expect(try BackupSchedule.interval("3600") == .seconds(3600))
        #expect(try BackupSchedule.interval("off") == nil)
        for bad in ["", "h", "-1h", "10s", "1y", "1.5h"] {
            #expect(throws: BackupSchedule.InvalidInterval.self) { try BackupSchedule.interval(bad) }
        }
    }
}
