import Foundation

/// The one board pipeline: snapshot → current scores → standings → view models. The round
/// page, the leaderboard page, the TV, the live streams and the standings API all read a
/// round through this value, so a rule changes the board in one place and they all agree.
public struct RoundBoard: Sendable {
    public let snapshot: RoundSnapshot
    public let scores: CurrentScores
    public let standings: Standings

    public init(_ snapshot: RoundSnapshot) {
        self.init(snapshot, scores: CurrentScores(events: snapshot.events))
    }

    /// With current scores already built from exactly the snapshot's events (a cache adds
    /// each new event to them instead of starting over).
    public init(_ snapshot: RoundSnapshot, scores: CurrentScores) {
        self.snapshot = snapshot
        self.scores = scores
        standings = Standings.compute(
            course: snapshot.course, round: snapshot.round, players: snapshot.players, scores: scores,
            divisionOrder: snapshot.event?.divisions ?? [], handicaps: snapshot.handicaps, netUnplaced: snapshot.netUnplaced,
            mulliganSales: snapshot.mulliganSales)
    }

    public var version: Int { snapshot.version }

    public var header: RoundHeader { RoundHeader(snapshot) }

    public var leaderboard: LeaderboardView {
        LeaderboardView(
            standings: standings, roundName: snapshot.round.name, courseName: snapshot.course.name, status: snapshot.round.status,
            version: snapshot.version,
            signed: Set(snapshot.signatures.map(\.playerID)))
    }

    public var scorecard: ScorecardView {
        ScorecardView(
            course: snapshot.course, round: snapshot.round, players: snapshot.players, scores: scores, standings: standings,
            version: snapshot.version,
            signatures: snapshot.signatures, reporterNames: snapshot.reporterNames)
    }
}

extension RoundSnapshot {
    public var board: RoundBoard { RoundBoard(self) }
}
