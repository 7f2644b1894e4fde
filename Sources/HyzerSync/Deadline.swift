import Synchronization

/// Runs an operation for at most `timeout`. A task group cannot promise that: it waits for
/// every child, and a child that ignores cancellation (a request queued for a connection
/// that a pool keeps retrying) would hold the caller — the sync engine — as long as it
/// likes. Here the caller gets the timeout's error at the deadline; the operation is
/// cancelled and left to end on its own.
enum Deadline {
    static func run<T: Sendable>(
        _ timeout: Duration,
        orThrow timeoutError: @escaping @Sendable () -> any Error,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome = Outcome<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.wait(with: continuation)
                let work = Task {
                    do { outcome.finish(.success(try await operation())) } catch { outcome.finish(.failure(error)) }
                }
                let timer = Task {
                    try? await Task.sleep(for: timeout)
                    if outcome.finish(.failure(timeoutError())) { work.cancel() }
                }
                outcome.onFinish {
                    work.cancel()
                    timer.cancel()
                }
            }
        } onCancel: {
            outcome.finish(.failure(CancellationError()))
        }
    }

    /// Resumes the caller exactly once, with whichever result comes first.
    private final class Outcome<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var early: Result<T, any Error>?
            var done = false
            var cleanup: (@Sendable () -> Void)?
        }

        private let state = Mutex(State())

        func wait(with continuation: CheckedContinuation<T, any Error>) {
            let early: Result<T, any Error>? = state.withLock { state in
                if let early = state.early { return early }
                state.continuation = continuation
                return nil
            }
            if let early { continuation.resume(with: early) }
        }

        func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
            let finished = state.withLock { state in
                if state.done { return true }
                state.cleanup = cleanup
                return false
            }
            if finished { cleanup() }
        }

        @discardableResult
        func finish(_ result: Result<T, any Error>) -> Bool {
            let (continuation, cleanup, first): (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?, Bool) = state.withLock { state in
                guard !state.done else { return (nil, nil, false) }
                state.done = true
                if state.continuation == nil { state.early = result }
                defer {
                    state.continuation = nil
                    state.cleanup = nil
                }
                return (state.continuation, state.cleanup, true)
            }
            continuation?.resume(with: result)
            cleanup?()
            return first
        }
    }
}
