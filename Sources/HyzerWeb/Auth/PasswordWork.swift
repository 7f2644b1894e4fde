import Foundation
import NIOPosix

/// bcrypt costs a quarter of a second of CPU by design. Run on the request's own thread, a
/// burst of sign-ups or sign-ins would hold every thread of the concurrency pool, and
/// `/healthz` and the boards with them. Here hashes run on threads of their own (not NIO's
/// shared blocking pool, where a backup's compression would make a sign-in wait), a few at a
/// time, with a bounded line behind them: past it the request is refused at once (503 with
/// `Retry-After`) instead of waiting for minutes.
actor PasswordWork {
    /// The process's bcrypt threads: started once, for the life of the process, like NIO's own.
    private static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(1, ProcessInfo.processInfo.activeProcessorCount / 2))
        pool.start()
        return pool
    }()

    let concurrency: Int
    let queueLimit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// One hash at a time on a machine of two cores leaves the other to everything else.
    init(concurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount / 2), queueLimit: Int = 32) {
        self.concurrency = concurrency
        self.queueLimit = queueLimit
    }

    struct Busy: Error {
        /// Seconds to wait: about what the line ahead takes.
        var retryAfter: Int
    }

    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        if running >= concurrency {
            guard waiting.count < queueLimit else { throw Busy(retryAfter: max(1, queueLimit / (4 * concurrency))) }
            await withCheckedContinuation { waiting.append($0) }
        } else {
            running += 1
        }
        defer { handOn() }
        return try await Self.threads.runIfActive(work)
    }

    /// The slot passes to the next in line, or is given back.
    private func handOn() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
