import Synchronization

/// Values read from a store and kept while nothing they come from has changed: `counter`
/// moves with every commit that could change them, before that write returns, so no read
/// after a change is answered from before it. `lifetime` bounds how long a value is kept
/// anyway: the counter sees only this process's commits (an `admin` command run beside the
/// server writes from another).
final class KeptValues<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var count: UInt64 = 0
        var since = ContinuousClock.now
        var values: [Key: Value] = [:]
    }

    private let counter: ChangeCounter
    private let capacity: Int
    private let lifetime: Duration
    private let state = Mutex(State())

    init(following counter: ChangeCounter, capacity: Int, lifetime: Duration = .seconds(60)) {
        self.counter = counter
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// The kept value, if still good, and the count to `keep` a value read now under.
    func lookup(_ key: Key) -> (value: Value?, count: UInt64) {
        let count = counter.value
        return (value(key, at: count), count)
    }

    /// The value kept under `count`, read by the caller before its transaction's first
    /// statement (inside a transaction, the counter may already be past its snapshot).
    func value(_ key: Key, at count: UInt64) -> Value? {
        state.withLock { state in
            state.count == count && ContinuousClock.now - state.since < lifetime ? state.values[key] : nil
        }
    }

    /// Keeps `value`, read after `lookup` returned `count`. Kept only if nothing changed since:
    /// a value read across a change is never served.
    func keep(_ value: Value, for key: Key, readAt count: UInt64) {
        state.withLock { state in
            if state.count != count || state.values.count >= capacity || ContinuousClock.now - state.since >= lifetime {
                state = State(count: count, since: .now, values: [:])
            }
            state.values[key] = value
        }
    }

    var count: Int { state.withLock { $0.values.count } }
}
