import Foundation
import HyzerCore
import HyzerStore

/// A layout's page: how its holes play over every round on it.
struct CoursePage: Sendable {
    var title: String
    var meta: String
    var holes: HoleStatisticsView

    init(course: Course, holes: HoleStatisticsView) {
        title = course.name
        meta = "\(course.holes.count) holes · par \(course.totalPar)\(course.archived ? " · removed" : "")"
        self.holes = holes
    }
}
