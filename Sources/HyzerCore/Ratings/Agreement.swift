/// How close two sets of ratings are: the median and the 90th percentile of the absolute
/// differences (how Hyzer's round ratings are measured against the PDGA's).
public struct Agreement: Hashable, Sendable {
    public var count: Int
    public var median: Double
    public var percentile90: Int

    /// `differences`: |ours − theirs| per player, any order; nil when empty.
    public init?(_ differences: [Int]) {
        let sorted = differences.sorted()
        guard !sorted.isEmpty else { return nil }
        count = sorted.count
        median =
            sorted.count % 2 == 1 ? Double(sorted[sorted.count / 2]) : Double(sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        percentile90 = sorted[Int((Double(sorted.count) * 0.9).rounded(.up)) - 1]
    }
}
