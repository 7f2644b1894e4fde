import Foundation
import HyzerCore
import Testing

@testable import HyzerWeb

@Suite struct HoleStatisticsViewTests {
    @Test func theViewWritesAveragesAsScoresDrawsTheBarAndListsTheHardestFirst() {
        let course = Course(
            id: UUID(), name: "Three", holes: [Hole(number: 1, par: 3), Hole(number: 2, par: 4), Hole(number: 3, par: 3)], createdAt: Date(),
            updatedAt: HLC(wallMillis: 1, counter: 0, deviceID: UUID()))
        let stats = HoleStatistics.compute(course: course, scores: [(1, 2), (1, 3), (1, 3), (1, 3), (2, 4), (2, 6)], rounds: 1)
        let view = HoleStatisticsView(course: course, statistics: stats)
        #expect(view.rows.map(\.average) == ["-0.25", "+1.00", "–"] && view.rows.map(\.averageClass) == ["under", "over", "none"])
        #expect(view.summary == "1 round · 6 scores" && view.hasScores)
        #expect(view.rows[0].counts == "1 birdie, 3 pars" && view.rows[2].counts == "Not played yet")
        #expect(view.rows[0].segments.map(\.kind) == ["birdie", "par"] && view.rows[0].segments.map(\.width) == ["25.00", "75.00"])
        #expect(view.rows[1].segments.map(\.x) == ["0.00", "50.00"], "each segment starts where the one before ends")
        #expect(view.hardest(5).rows.map(\.number) == [2], "holes playing over par; unplayed holes left out")
        let easy = HoleStatisticsView(course: course, statistics: .compute(course: course, scores: [(1, 3), (2, 3), (3, 2)], rounds: 1))
        #expect(easy.hardest(5).rows.map(\.number) == [1, 2, 3], "none over par: the hardest three played")
        #expect(HoleStatisticsView.average(0.001) == "E" && HoleStatisticsView.average(-0.004) == "E")
    }
}
