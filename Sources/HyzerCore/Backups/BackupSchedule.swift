import Foundation

public enum BackupSchedule {
    public struct InvalidInterval: Error {}

    /// Reads `1h`, `30m`, `3600s`, `3600`, `2d` or `off` (nil). Less than a minute is refused:
    /// a backup a second would only fill the disk.
    public static func interval(_ text: String) throws -> Duration? {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        if ["off", "never", "0", "none"].contains(text) { return nil }
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        let (digits, unit) = text.last.map { $0.isLetter ? (String(text.dropLast()), units[$0]) : (text, 1) } ?? ("", nil)
        guard let unit, let value = Int(digits), value > 0, value * unit >= 60 else { throw InvalidInterval() }
        return .seconds(value * unit)
    }
}
