import Foundation

/// Everything one round's pages need, read together so they describe one moment.
public struct RoundSnapshot: Sendable {
    public var round: Round
    public var course: Course
    public var players: [Player]
    public var events: [ScoreEvent]
    /// Increases with every stored change to this round, and only then.
    public var version: Int
    /// The event the round belongs to, for its division order and name.
    public var event: Event?
    public var signatures: [Signature]
    /// On a mulligan night: every sale of mulligans, in the order they were stored.
    public var mulliganSales: [MulliganSale] = []
    /// Names of those who entered scores without playing in the round (coaches).
    public var reporterNames: [UUID: String] = [:]
    /// On a league night with handicaps: the throws each player's frozen handicap takes off
    /// this round.
    public var handicaps: [UUID: Int] = [:]
    /// The night's season leaves players without a handicap yet off net places.
    public var netUnplaced = false

    public init(
        round: Round, course: Course, players: [Player], events: [ScoreEvent], version: Int, event: Event? = nil, signatures: [Signature] = []
    ) {
        self.event = event
        self.signatures = signatures
        self.round = round
        self.course = course
        self.players = players
        self.events = events
        self.version = version
    }

    /// Everyone a scorecard may name: the players, and whoever entered scores.
    public var names: [UUID: String] {
        playerNames.merging(reporterNames) { player, _ in player }
    }

    public var playerNames: [UUID: String] {
        Dictionary(players.map { ($0.id, $0.displayName) }, uniquingKeysWith: { first, _ in first })
    }

    /// One player's name, without building `playerNames` (every score asks for one).
    public func playerName(_ id: UUID) -> String? {
        players.first { $0.id == id }?.displayName
    }
}

/// One line of the home page and `GET /api/v1/rounds`.
public struct RoundSummary: Hashable, Sendable {
    public var id: UUID
    public var name: String
    public var courseName: String
    public var status: RoundStatus
    public var startedAt: Date?
    public var createdAt: Date
    public var playerCount: Int

    public init(id: UUID, name: String, courseName: String, status: RoundStatus, startedAt: Date?, createdAt: Date, playerCount: Int) {
        self.id = id
        self.name = name
        self.courseName = courseName
        self.status = status
        self.startedAt = startedAt
        self.createdAt = createdAt
        self.playerCount = playerCount
    }
}
