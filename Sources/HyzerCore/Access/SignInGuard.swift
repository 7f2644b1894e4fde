import Foundation

/// How failed sign-ins slow a guesser without locking the owner out.
///
/// - An address that failed `pairLimit` times for one handle is refused *for that handle*
///   until the oldest of those failures ages out; anyone else still signs in to it.
/// - An address that failed `addressLimit` times, over any handles, is refused for all of
///   them (one machine trying many accounts).
/// - A handle failing from many addresses (a guesser who moves around) is not refused: each
///   further wrong answer for it is slowed, up to `maxDelay`, while a right one never waits.
/// - Counts for a handle belong to its current password (`stamp`): a reset starts them over.
///
/// So a correct password from an address that has not failed is never refused. Pure value:
/// the server keeps one in an actor (in memory: a restart forgives).
public struct SignInGuard: Sendable {
    public enum Verdict: Sendable, Equatable {
        /// Refused without checking the password; try again in this many seconds.
        case refuse(retryAfter: Int)
        /// Check the password; a wrong one is answered only after this many seconds.
        case proceed(delayOnFailure: Double)
    }

    public var pairLimit = 5
    public var addressLimit = 20
    /// Failures of a handle, from anywhere, before its wrong answers slow down.
    public var freeFailures = 5
    public var maxDelay = 8.0
    public var window: TimeInterval = 15 * 60
    /// Beyond this many keys, every key's old failures are dropped at once (a spray of
    /// made-up handles must not grow memory without bound).
    var keyLimit = 50_000

    private var failures: [String: [Date]] = [:]

    public init() {}

    private static func keys(handle: String, stamp: String, address: String) -> (pair: String, address: String, handle: String) {
        ("pair\u{0}\(handle)\u{0}\(stamp)\u{0}\(address)", "address\u{0}\(address)", "handle\u{0}\(handle)\u{0}\(stamp)")
    }

    /// Counts an attempt before the password is checked, so concurrent guesses cannot all
    /// slip under a limit. A refused attempt counts nothing.
    public mutating func attempt(handle: String, stamp: String, address: String, now: Date = Date()) -> Verdict {
        if failures.count > keyLimit { failures = failures.compactMapValues { $0.filter { now.timeIntervalSince($0) < window }.nilIfEmpty } }
        let keys = Self.keys(handle: handle, stamp: stamp, address: address)
        let pair = recent(keys.pair, now)
        let fromAddress = recent(keys.address, now)
        var waits: [TimeInterval] = []
        if pair.count >= pairLimit, let oldest = pair.first { waits.append(oldest.addingTimeInterval(window).timeIntervalSince(now)) }
        if fromAddress.count >= addressLimit, let oldest = fromAddress.first {
            waits.append(oldest.addingTimeInterval(window).timeIntervalSince(now))
        }
        if let wait = waits.max() { return .refuse(retryAfter: max(1, Int(wait.rounded(.up)))) }
        let forHandle = recent(keys.handle, now).count + 1
        for key in [keys.pair, keys.address, keys.handle] { failures[key, default: []].append(now) }
        let over = forHandle - freeFailures
        return .proceed(delayOnFailure: over > 0 ? min(maxDelay, 0.5 * pow(2, Double(over - 1))) : 0)
    }

    /// A correct password: this address's failures for the handle are forgiven; the address
    /// and the handle only get this attempt back, so signing in to one account never resets
    /// guessing at others.
    public mutating func succeeded(handle: String, stamp: String, address: String) {
        let keys = Self.keys(handle: handle, stamp: stamp, address: address)
        failures[keys.pair] = nil
        takeBack([keys.address, keys.handle])
    }

    /// An attempt that was counted but never checked (the server was too busy to check it):
    /// it is taken back, so a flood of unchecked attempts cannot lock anyone out.
    public mutating func withdraw(handle: String, stamp: String, address: String) {
        let keys = Self.keys(handle: handle, stamp: stamp, address: address)
        takeBack([keys.pair, keys.address, keys.handle])
    }

    /// The newest attempt counted against each key, taken back.
    private mutating func takeBack(_ keys: [String]) {
        for key in keys {
            guard var recent = failures[key], !recent.isEmpty else { continue }
            recent.removeLast()
            failures[key] = recent.nilIfEmpty
        }
    }

    private mutating func recent(_ key: String, _ now: Date) -> [Date] {
        let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
        failures[key] = recent.nilIfEmpty
        return recent
    }
}

/// Counts events per key in a sliding window: sign-ups per address, for one.
public struct AttemptWindow: Sendable {
    public let limit: Int
    public let window: TimeInterval
    private var attempts: [String: [Date]] = [:]

    public init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// Counts an attempt for `key`, or returns the seconds until one is allowed (counting nothing).
    public mutating func attempt(_ key: String, now: Date = Date()) -> Int? {
        if attempts.count > 50_000 { attempts = attempts.compactMapValues { $0.filter { now.timeIntervalSince($0) < window }.nilIfEmpty } }
        let recent = (attempts[key] ?? []).filter { now.timeIntervalSince($0) < window }
        if recent.count >= limit, let oldest = recent.first {
            attempts[key] = recent
            return max(1, Int(oldest.addingTimeInterval(window).timeIntervalSince(now).rounded(.up)))
        }
        attempts[key] = recent + [now]
        return nil
    }
}

extension Array {
    var nilIfEmpty: Self? { isEmpty ? nil : self }
}
