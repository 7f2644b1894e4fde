import Foundation

extension HoleStatistics {
    /// The statistics of `course` over those of `boards` played on it: every player's current
    /// score on every hole they finished.
    public static func of(_ boards: [RoundBoard], course: Course) -> HoleStatistics {
        let played = boards.filter { $0.snapshot.course.id == course.id }
        return compute(course: course, tallies: played.map(Tally.init), rounds: played.count)
    }

    /// One set of statistics per layout the boards were played on, in the order the layouts
    /// first appear; each layout as its newest board has it.
    public static func byCourse(_ boards: [RoundBoard]) -> [(course: Course, statistics: HoleStatistics)] {
        // A putting round's "holes" are its lies, and its counts putts made: no hole's statistic.
        let boards = boards.filter { $0.snapshot.round.format != .putting }
        var courses: [Course] = []
        for board in boards {
            let course = board.snapshot.course
            if let index = courses.firstIndex(where: { $0.id == course.id }) {
                courses[index] = course
            } else {
                courses.append(course)
            }
        }
        return courses.map { ($0, of(boards, course: $0)) }
    }
}
