import Foundation

/// The TV screen's boards: every active round, each with the shared leaderboard partial.
public struct TVBoards: Sendable {
    public struct Board: Sendable {
        public var roundID: String
        public var name: String
        public var courseName: String
        public var leaderboard: LeaderboardView
    }

    public var rounds: [Board]

    public init(boards: [RoundBoard]) {
        rounds = boards.map {
            Board(roundID: Format.id($0.snapshot.round.id), name: $0.snapshot.round.name, courseName: $0.snapshot.course.name, leaderboard: $0.leaderboard)
        }
    }
}
