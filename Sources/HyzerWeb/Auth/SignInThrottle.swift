import Foundation

/// Slows password guessing: after `limit` failed sign-ins for one handle, or from one
/// address, within `window`, further attempts are refused until the oldest failure ages out.
/// Kept in memory: a restart forgives, which only an attacker who can restart the server
/// could use.
actor SignInThrottle {
    let limit: Int
    let window: TimeInterval
    private var failures: [String: [Date]] = [:]

    init(limit: Int = 5, window: TimeInterval = 15 * 60) {
        self.limit = limit
        self.window = window
    }

    /// Seconds to wait before another attempt for these keys, or nil when one is allowed now.
    func retryAfter(_ keys: [String], now: Date = Date()) -> Int? {
        let waits = keys.compactMap { key -> TimeInterval? in
            let recent = prune(key, now)
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return oldest.addingTimeInterval(window).timeIntervalSince(now)
        }
        return waits.max().map { max(1, Int($0.rounded(.up))) }
    }

    func failed(_ keys: [String], now: Date = Date()) {
        for key in keys { failures[key, default: []].append(now) }
    }

    func succeeded(_ keys: [String]) {
        for key in keys { failures[key] = nil }
    }

    private func prune(_ key: String, _ now: Date) -> [Date] {
        let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
        failures[key] = recent.isEmpty ? nil : recent
        return recent
    }
}
