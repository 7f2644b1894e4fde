import Foundation

/// One player's round of a league night, as its board shows it.
public struct NightRound: Hashable, Sendable {
    public var roundID: UUID
    public var playerID: UUID
    public var toPar: Int
    /// The layout's holes, and how many the player played.
    public var holes: Int
    public var thru: Int
    public var dnf: Bool

    public init(roundID: UUID, playerID: UUID, toPar: Int, holes: Int, thru: Int, dnf: Bool) {
        self.roundID = roundID
        self.playerID = playerID
        self.toPar = toPar
        self.holes = holes
        self.thru = thru
        self.dnf = dnf
    }

    /// Played to the last hole: a round a handicap can be computed from.
    public var finished: Bool { !dnf && holes > 0 && thru == holes }
}

/// A league night as the season reads it: each player's night result (gross, from the
/// event's standings) and their rounds.
public struct SeasonNight: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var playerID: UUID
        public var division: String
        /// The night's total to par, over its rounds.
        public var toPar: Int
        public var dnf: Bool
        public var started: Bool
        /// Won the night's recorded playoff for first.
        public var wonPlayoff: Bool

        public init(playerID: UUID, division: String, toPar: Int, dnf: Bool, started: Bool, wonPlayoff: Bool = false) {
            self.playerID = playerID
            self.division = division
            self.toPar = toPar
            self.dnf = dnf
            self.started = started
            self.wonPlayoff = wonPlayoff
        }
    }

    public var eventID: UUID
    public var entries: [Entry]
    public var rounds: [NightRound]
    /// The players of each team that played the night (by team id), on a night of a team round.
    public var teams: [UUID: [UUID]]

    public init(eventID: UUID, entries: [Entry], rounds: [NightRound], teams: [UUID: [UUID]] = [:]) {
        self.eventID = eventID
        self.entries = entries
        self.rounds = rounds
        self.teams = teams
    }
}

/// What rating-based handicaps are computed from: each player's rating, and each night's
/// layout's rating points per throw over 18 holes.
public struct RatingBasis: Hashable, Sendable {
    public var ratings: [UUID: Int]
    /// By night (event).
    public var pointsPerThrow: [UUID: Double]

    public init(ratings: [UUID: Int] = [:], pointsPerThrow: [UUID: Double] = [:]) {
        self.ratings = ratings
        self.pointsPerThrow = pointsPerThrow
    }

    public func basis(_ playerID: UUID, night eventID: UUID) -> (value: Double, pointsPerThrow: Double)? {
        guard let rating = ratings[playerID], let perThrow = pointsPerThrow[eventID] else { return nil }
        return (Double(rating), perThrow)
    }
}

/// Handicaps and net results over a season's nights. A night's handicap for a player comes
/// from their finished rounds of the season's earlier nights only: what is played that night
/// or later never changes it.
public enum SeasonHandicaps {
    /// Each night's handicap of each player who played it (none before the method's minimum).
    /// `frozen`: the handicaps frozen when a night started, by night and player (a nil value:
    /// frozen as none); they stand instead of what the earlier nights say now.
    /// `ratings`: what a rating-based method reads (the others read the earlier nights).
    public static func perNight(
        _ nights: [SeasonNight], method: HandicapMethod?, frozen: [UUID: [UUID: Handicap?]] = [:], ratings: RatingBasis = RatingBasis()
    ) -> [UUID: [UUID: Handicap]] {
        guard let method else { return [:] }
        var earlier: [UUID: [HandicapRound]] = [:]
        var result: [UUID: [UUID: Handicap]] = [:]
        for night in nights {
            var tonight: [UUID: Handicap] = [:]
            let fixed = frozen[night.eventID] ?? [:]
            for entry in night.entries {
                if let kept = fixed[entry.playerID] {
                    tonight[entry.playerID] = kept
                } else if let handicap = Handicap.compute(
                    method, rounds: earlier[entry.playerID] ?? [], rating: ratings.basis(entry.playerID, night: night.eventID))
                {
                    tonight[entry.playerID] = handicap
                }
            }
            result[night.eventID] = tonight
            for round in night.rounds where round.finished {
                earlier[round.playerID, default: []].append(HandicapRound(roundID: round.roundID, toPar: round.toPar, holes: round.holes))
            }
        }
        return result
    }

    /// A player's handicap for a night as the season's earlier nights give it now: what
    /// freezing the night records.
    public static func handicap(
        of playerID: UUID, before eventID: UUID, _ nights: [SeasonNight], method: HandicapMethod, ratings: RatingBasis = RatingBasis()
    ) -> Handicap? {
        let earlier = nights.prefix { $0.eventID != eventID }.flatMap(\.rounds).filter { $0.playerID == playerID && $0.finished }
        return Handicap.compute(
            method, rounds: earlier.map { HandicapRound(roundID: $0.roundID, toPar: $0.toPar, holes: $0.holes) },
            rating: ratings.basis(playerID, night: eventID))
    }

    /// The throws a handicap takes off one round: its value scaled to the round's holes, in
    /// whole throws.
    public static func strokes(_ handicap: Handicap, holes: Int) -> Int {
        holes == 18 ? handicap.strokes : Int((handicap.value * Double(holes) / 18).rounded(.toNearestOrAwayFromZero))
    }

    /// The results that place each night, gross or net as the rule says. A player without a
    /// handicap yet is placed on gross, or takes no place when the season says so.
    public static func results(
        _ nights: [SeasonNight], rule: PointsRule, method: HandicapMethod?, frozen: [UUID: [UUID: Handicap?]] = [:],
        ratings: RatingBasis = RatingBasis()
    ) -> [SeasonStandings.Night] {
        let handicaps = rule.placesBy == .net ? perNight(nights, method: method, frozen: frozen, ratings: ratings) : [:]
        return nights.map { night in
            let tonight = handicaps[night.eventID] ?? [:]
            return SeasonStandings.Night(
                eventID: night.eventID,
                results: night.entries.filter { $0.started || $0.dnf }.map { entry in
                    var score = entry.toPar
                    var placed = !entry.dnf
                    // A team has no handicap: it is placed on gross.
                    let team = night.teams[entry.playerID] != nil
                    if !team, let handicap = tonight[entry.playerID] {
                        score -= night.rounds.filter { $0.playerID == entry.playerID }.reduce(0) { $0 + strokes(handicap, holes: $1.holes) }
                    } else if !team, rule.placesBy == .net, method?.unhandicapped == .unplaced {
                        placed = false
                    }
                    return SeasonStandings.Result(
                        playerID: entry.playerID, division: entry.division, score: score, dnf: !placed, wonPlayoff: entry.wonPlayoff)
                }, teams: night.teams)
        }
    }
}
