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

    /// Counts an attempt against every key, before the password is checked, so concurrent
    /// guesses cannot all slip under the limit. Returns the seconds to wait when a key is
    /// already at its limit (and then counts nothing), or nil to go ahead.
    func attempt(_ keys: [String], now: Date = Date()) -> Int? {
        let waits = keys.compactMap { key -> TimeInterval? in
            let recent = prune(key, now)
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return oldest.addingTimeInterval(window).timeIntervalSince(now)
        }
        if let wait = waits.max() { return max(1, Int(wait.rounded(.up))) }
        for key in keys { failures[key, default: []].append(now) }
        return nil
    }

    /// A correct password: the handle's failures are forgiven, but the address only gets this
    /// attempt back, so signing in to one account never resets guessing at others.
    func succeeded(handle: String, address: String) {
        failures[handle] = nil
        if var recent = failures[address], !recent.isEmpty {
            recent.removeLast()
            failures[address] = recent.isEmpty ? nil : recent
        }
    }

    private func prune(_ key: String, _ now: Date) -> [Date] {
        let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
        failures[key] = recent.isEmpty ? nil : recent
        return recent
    }
}
