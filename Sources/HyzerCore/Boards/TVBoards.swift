import Foundation

/// The TV screen's boards: every active round, one page per division of a round with
/// divisions, each with the shared leaderboard partial.
public struct TVBoards: Sendable {
    public struct Board: Sendable {
        public var roundID: String
        /// Unique per page: the round, and the division when it has them.
        public var key: String
        public var name: String
        public var division: String
        public var courseName: String
        public var leaderboard: LeaderboardView
    }

    public var rounds: [Board]

    public init(boards: [RoundBoard]) {
        rounds = boards.flatMap { board -> [Board] in
            let round = board.snapshot.round
            let whole = board.leaderboard
            let id = Format.id(round.id)
            guard whole.hasDivisions else {
                return [Board(roundID: id, key: id, name: round.name, division: "", courseName: board.snapshot.course.name, leaderboard: whole)]
            }
            return whole.divisions.map { division in
                Board(
                    roundID: id, key: "\(id)/\(division.name)", name: round.name, division: division.name,
                    courseName: board.snapshot.course.name, leaderboard: whole.only(division.name))
            }
        }
    }
}
