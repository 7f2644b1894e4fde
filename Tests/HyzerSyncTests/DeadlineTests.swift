import Foundation
import Synchronization
import Testing

@testable import HyzerSync

@Suite struct DeadlineTests {
    @Test func theResultComesBackBeforeTheDeadline() async throws {
        let value = try await Deadline.run(.seconds(5), orThrow: { CloudError.unreachable("late") }) { 42 }
        #expect(value == 42)
    }

    /// A task group would wait for this operation to end; the deadline answers before it does.
    /// The operation ignores cancellation and cannot end until the test lets it, so the answer
    /// does not depend on how busy the machine is.
    @Test(.timeLimit(.minutes(1))) func theDeadlineHoldsWhenTheOperationIgnoresCancellation() async throws {
        let gate = Gate()
        await #expect(throws: CloudError.self) {
            try await Deadline.run(.milliseconds(200), orThrow: { CloudError.unreachable("late") }) {
                await gate.wait()
                return 1
            }
        }
        #expect(gate.released == false, "answered at the deadline, not when the operation ended")
        gate.release()
    }

    @Test func anErrorOfTheOperationIsPassedOn() async throws {
        await #expect(throws: CloudError.self) {
            try await Deadline.run(.seconds(5), orThrow: { CancellationError() }) { () async throws -> Int in throw CloudError.readOnly }
        }
    }
}

/// A wait that only `release()` ends; cancellation does not.
private final class Gate: Sendable {
    private let state = Mutex<(released: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    var released: Bool { state.withLock { $0.released } }

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.released { return true }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func release() {
        let waiter = state.withLock { state in
            state.released = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
