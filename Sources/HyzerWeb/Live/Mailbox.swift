import NIOCore
import Synchronization

/// One subscriber's inbox, holding at most one state frame and one heartbeat. Every state
/// frame is the full current state, so a client that cannot keep up loses only states that
/// are already out of date: a newer frame replaces the one waiting, memory stays bounded,
/// and the next frame it gets is the current state.
final class Mailbox: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    private struct State {
        var frame: ByteBuffer?
        var heartbeat: ByteBuffer?
        var waiter: CheckedContinuation<ByteBuffer?, Never>?
        var closed = false
        var replaced = 0
    }

    private let state = Mutex(State())

    /// Offers the newest state; an undelivered older one is dropped.
    func deliver(_ frame: ByteBuffer) {
        let waiter: CheckedContinuation<ByteBuffer?, Never>? = state.withLock { state in
            guard !state.closed else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.frame != nil { state.replaced += 1 }
            state.frame = frame
            return nil
        }
        waiter?.resume(returning: frame)
    }

    /// Offers a keep-alive comment, sent only when nothing else is waiting.
    func heartbeat(_ comment: ByteBuffer) {
        let waiter: CheckedContinuation<ByteBuffer?, Never>? = state.withLock { state in
            guard !state.closed else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.frame == nil { state.heartbeat = comment }
            return nil
        }
        waiter?.resume(returning: comment)
    }

    /// Ends the sequence: the subscriber's loop finishes.
    func close() {
        let waiter = state.withLock { state in
            state.closed = true
            state.frame = nil
            state.heartbeat = nil
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// How many undelivered frames were replaced by newer ones.
    var replacedCount: Int { state.withLock { $0.replaced } }

    func next() async -> ByteBuffer? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ByteBuffer?, Never>) in
                let ready: ByteBuffer?? = state.withLock { state in
                    if state.closed { return .some(nil) }
                    if let frame = state.frame {
                        state.frame = nil
                        state.heartbeat = nil
                        return .some(frame)
                    }
                    if let heartbeat = state.heartbeat {
                        state.heartbeat = nil
                        return .some(heartbeat)
                    }
                    state.waiter = continuation
                    return .none
                }
                if case .some(let value) = ready { continuation.resume(returning: value) }
            }
        } onCancel: {
            close()
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let mailbox: Mailbox
        mutating func next() async -> ByteBuffer? { await mailbox.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(mailbox: self) }
}
