import Foundation

/// For fault tests only: places in score writes, push and pull where the process kills itself
/// with SIGKILL, so a test can stop a device exactly between two steps a crash must never
/// separate (a group commit's writes and its commit; the commit and its answers; the cloud's
/// commit and the local `synced` mark; a page applied and its change token). A kill from
/// outside lands anywhere; these land where it matters. `hyzer serve` sets them from
/// `HYZER_TEST_CRASH_AT`; nothing else does.
public struct CrashPoints: Sendable, Equatable {
    public enum Point: String, CaseIterable, Sendable {
        /// A group commit wrote its scores and outbox entries; the transaction is not committed.
        case scoreWritten = "score.written"
        /// A group commit is on disk; nobody in it has been answered.
        case scoreCommitted = "score.committed"
        /// A batch is marked in flight, nothing sent yet.
        case pushClaimed = "push.claimed"
        /// The cloud committed the batch; the outbox does not know yet.
        case pushSaved = "push.saved"
        /// The batch is marked synced.
        case pushMarked = "push.marked"
        /// A page was fetched, nothing applied.
        case pullFetched = "pull.fetched"
        /// A page is applied; its change token is not stored yet.
        case pullApplied = "pull.applied"
    }

    public let points: Set<Point>
    /// The chance that passing a point kills the process.
    public let probability: Double

    /// `push.saved,pull.applied@0.3`: the points, and the chance each passing kills (default 1).
    public init?(_ spec: String) {
        let parts = spec.split(separator: "@", maxSplits: 1)
        let names = parts.first.map { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } } ?? []
        let points = names.compactMap(Point.init(rawValue:))
        guard !points.isEmpty, points.count == names.count else { return nil }
        let probability = parts.count == 2 ? Double(parts[1]) : 1
        guard let probability, (0...1).contains(probability) else { return nil }
        self.points = Set(points)
        self.probability = probability
    }

    public func pass(_ point: Point) {
        guard points.contains(point), Double.random(in: 0..<1) < probability else { return }
        kill(getpid(), SIGKILL)
    }
}
