import Foundation
import Testing
@testable import HyzerSync

@Suite struct DeadlineTests {
    @Test func theResultComesBackBeforeTheDeadline() async throws {
        let value = try await Deadline.run(.seconds(5), orThrow: { CloudError.unreachable("late") }) { 42 }
        #expect(value == 42)
    }

    /// A task group would wait the whole three seconds for this operation.
    @Test func theDeadlineHoldsWhenTheOperationIgnoresCancellation() async throws {
        let started = ContinuousClock.now
        await #expect(throws: CloudError.self) {
            try await Deadline.run(.milliseconds(200), orThrow: { CloudError.unreachable("late") }) {
                let end = ContinuousClock.now + .seconds(3)
                while ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(50)) }
                return 1
            }
        }
        #expect(ContinuousClock.now - started < .seconds(2), "answered at the deadline, not when the operation ended")
    }

    @Test func anErrorOfTheOperationIsPassedOn() async throws {
        await #expect(throws: CloudError.self) {
            try await Deadline.run(.seconds(5), orThrow: { CancellationError() }) { () async throws -> Int in throw CloudError.readOnly }
        }
    }
}
