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
    @Test func theDeadlineHoldsWhenTheOperationIgnoresCancellation() async throws {
        let ended = Mutex(false)
        await #expect(throws: CloudError.self) {
            try await Deadline.run(.milliseconds(200), orThrow: { CloudError.unreachable("late") }) {
                let end = ContinuousClock.now + .seconds(10)
                while ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(50)) }
                ended.withLock { $0 = true }
                return 1
            }
        }
        #expect(ended.withLock { $0 } == false, "answered at the deadline, not when the operation ended")
    }

    @Test func anErrorOfTheOperationIsPassedOn() async throws {
        await #expect(throws: CloudError.self) {
            try await Deadline.run(.seconds(5), orThrow: { CancellationError() }) { () async throws -> Int in throw CloudError.readOnly }
        }
    }
}
