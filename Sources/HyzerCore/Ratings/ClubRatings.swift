import Foundation

/// Every round rating and player rating of a club, derived from its rounds in the order they
/// were played: a round is rated with each player's rating as it stood before it, and the
/// ratings it gives count for the rounds after. The same rounds give the same ratings on every
/// device. A coach's entered rating (a PDGA rating) propagates until Hyzer has rated enough
/// of the player's rounds for its own.
public struct ClubRatings: Sendable {
    /// One round as the ratings read it.
    public struct Round: Sendable {
        public var id: UUID
        public var holes: Int
        public var playedAt: Date
        /// Completed rounds are rated for good; a round in progress gets provisional ratings.
        public var completed: Bool
        public var entries: [Entry]

        public init(id: UUID, holes: Int, playedAt: Date, completed: Bool, entries: [Entry]) {
            self.id = id
            self.holes = holes
            self.playedAt = playedAt
            self.completed = completed
            self.entries = entries
        }
    }

    public struct Entry: Sendable {
        public var playerID: UUID
        public var strokes: Int
        public var finished: Bool
        /// Marked as not finishing (not merely still playing).
        public var dnf: Bool

        public init(playerID: UUID, strokes: Int, finished: Bool, dnf: Bool = false) {
            self.playerID = playerID
            self.strokes = strokes
            self.finished = finished
            self.dnf = dnf
        }
    }

    public struct RoundRating: Sendable {
        public var roundID: UUID
        public var provisional: Bool
        public var result: RoundRatings.Result
    }

    public enum Source: String, Sendable {
        /// Entered by a coach (a PDGA rating): official elsewhere, propagating here.
        case entered
        /// Hyzer's own, from the rounds it rated.
        case hyzer
    }

    public struct HistoryEntry: Hashable, Sendable {
        public var at: Date
        public var rating: Int
        /// The round whose rating moved it there (not every round it averages: a long history
        /// would repeat them all each time).
        public var roundIDs: [UUID]
    }

    public struct PlayerRating: Sendable {
        public var rating: Int?
        public var source: Source?
        /// Propagates: an entered rating, or Hyzer's from enough rated rounds.
        public var established: Bool
        /// Each value after each rated round, oldest first.
        public var history: [HistoryEntry]
        /// The rounds the rating is now the average of (none for an entered one).
        public var averaged: [UUID]
        /// Every rated round, in the order played.
        public var rounds: [(roundID: UUID, rating: Int)]
    }

    public var rounds: [UUID: RoundRating]
    public var players: [UUID: PlayerRating]

    /// The completed rounds rated in the order played, and what they made of each player:
    /// everything a new score in a live round leaves as it is, so it is kept (by the store)
    /// while the completed rounds and the entered ratings stand.
    public struct Settled: Sendable {
        var results: [UUID: RoundRating] = [:]
        /// Each player's rated rounds, oldest first.
        var rated: [UUID: [PlayerRatings.RatedRound]] = [:]
        var history: [UUID: [HistoryEntry]] = [:]
        var entered: [UUID: Int] = [:]
        /// Everyone with an entry in a completed round.
        var players: Set<UUID> = []

        public init() {}

        func standing(_ player: UUID, at date: Date) -> (rating: Int?, source: Source?, established: Bool, used: [UUID]) {
            let mine = rated[player] ?? []
            if mine.count >= PlayerRatings.establishedRounds, let own = PlayerRatings.rating(chronological: mine, asOf: date) {
                return (own.value, .hyzer, true, own.roundIDs)
            }
            if let value = entered[player] { return (value, .entered, true, []) }
            if let own = PlayerRatings.rating(chronological: mine, asOf: date) { return (own.value, .hyzer, false, own.roundIDs) }
            return (nil, nil, false, [])
        }

        func rate(_ round: Round, at date: Date) -> RoundRatings.Result {
            RoundRatings.rate(
                holes: round.holes,
                round.entries.map { entry in
                    let now = standing(entry.playerID, at: date)
                    return RoundRatings.Entry(
                        playerID: entry.playerID, strokes: entry.strokes, finished: entry.finished,
                        propagatingRating: now.established ? now.rating : nil)
                })
        }
    }

    /// Rounds in the order played: by when, then by id (as text, the same on every device).
    static func chronological(_ rounds: [Round]) -> [Round] {
        rounds.map { ($0, $0.id.lowercasedText) }.sorted { $0.0.playedAt != $1.0.playedAt ? $0.0.playedAt < $1.0.playedAt : $0.1 < $1.1 }
            .map(\.0)
    }

    /// Rates the completed ones of `rounds`, each with the ratings as they stood before it.
    public static func settle(_ rounds: [Round], entered: [UUID: Int]) -> Settled {
        var settled = Settled()
        settled.entered = entered
        for round in chronological(rounds.filter(\.completed)) {
            for entry in round.entries { settled.players.insert(entry.playerID) }
            let result = settled.rate(round, at: round.playedAt)
            settled.results[round.id] = RoundRating(roundID: round.id, provisional: false, result: result)
            for (player, value) in result.ratings.sorted(by: { $0.key.lowercasedText < $1.key.lowercasedText }) {
                settled.rated[player, default: []].append(PlayerRatings.RatedRound(roundID: round.id, playedAt: round.playedAt, rating: value))
            }
            for player in result.ratings.keys {
                let now = settled.standing(player, at: round.playedAt)
                if let value = now.rating {
                    settled.history[player, default: []].append(HistoryEntry(at: round.playedAt, rating: value, roundIDs: [round.id]))
                }
            }
        }
        return settled
    }

    /// `settled`: what `settle` gave for the same completed rounds and entered ratings, kept;
    /// only the live rounds and the ratings as of `moment` are then computed.
    public static func compute(_ rounds: [Round], entered: [UUID: Int], asOf moment: Date, settled kept: Settled? = nil) -> ClubRatings {
        let settled = kept ?? settle(rounds, entered: entered)
        var results = settled.results
        let live = rounds.filter { !$0.completed }
        for round in chronological(live) {
            var result = settled.rate(round, at: moment)
            // In a round under way, not having finished is still playing.
            for entry in round.entries where !entry.finished && !entry.dnf { result.unrated[entry.playerID] = "Still playing." }
            if result.ratings.isEmpty, let reason = result.reason {
                result.reason = "\(reason) (The round is under way: it is rated as players finish.)"
            }
            results[round.id] = RoundRating(roundID: round.id, provisional: true, result: result)
        }
        var players: [UUID: PlayerRating] = [:]
        for player in settled.players.union(settled.rated.keys).union(entered.keys).union(live.flatMap { $0.entries.map(\.playerID) }) {
            let now = settled.standing(player, at: moment)
            players[player] = PlayerRating(
                rating: now.rating, source: now.source, established: now.established, history: settled.history[player] ?? [], averaged: now.used,
                rounds: (settled.rated[player] ?? []).map { ($0.roundID, $0.rating) })
        }
        return ClubRatings(rounds: results, players: players)
    }
}
