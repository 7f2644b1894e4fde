import Foundation

/// A season's table: a pure function of its nights' results and its points rule.
public struct SeasonStandings: Hashable, Sendable {
    /// One player's result of one night, in the division they played it, on the score that
    /// decides places (gross or net to par, as the season says).
    public struct Result: Hashable, Sendable {
        public var playerID: UUID
        public var division: String
        public var score: Int
        public var dnf: Bool
        /// Won the playoff for first that the night's event recorded.
        public var wonPlayoff: Bool

        public init(playerID: UUID, division: String, score: Int, dnf: Bool = false, wonPlayoff: Bool = false) {
            self.playerID = playerID
            self.division = division
            self.score = score
            self.dnf = dnf
            self.wonPlayoff = wonPlayoff
        }
    }

    /// A league night (an event of the season), in season order.
    public struct Night: Hashable, Sendable {
        public var eventID: UUID
        public var results: [Result]
        /// A team's players by its id, on a night with a team round: a team is placed as one,
        /// and each of its players takes its points.
        public var teams: [UUID: [UUID]]

        public init(eventID: UUID, results: [Result], teams: [UUID: [UUID]] = [:]) {
            self.eventID = eventID
            self.results = results
            self.teams = teams
        }
    }

    public struct NightPoints: Hashable, Sendable {
        public var eventID: UUID
        /// 1-based; shared by tied players; nil for a DNF.
        public var place: Int?
        public var tied: Bool
        public var points: Int
        /// Among the nights that count (best K).
        public var counted: Bool
    }

    public struct Entry: Hashable, Sendable {
        public var position: String
        public var playerID: UUID
        public var displayName: String
        public var points: Int
        public var nightsCounted: Int
        public var wins: Int
        public var nights: [NightPoints]
    }

    public struct Division: Hashable, Sendable {
        public var name: String
        public var entries: [Entry]
    }

    public var divisions: [Division]

    /// Places and points of one division's night: finishers by score (lower is better),
    /// ties sharing the places they cover; DNFs get no place. A tie for first that a playoff
    /// decided gives its winner first alone; the others share the places after it.
    static func night(_ results: [Result], eventID: UUID, rule: PointsRule) -> [UUID: NightPoints] {
        let finishers = results.filter { !$0.dnf }.sorted { $0.score < $1.score }
        var points: [UUID: NightPoints] = [:]
        var start = 0
        while start < finishers.count {
            var end = start
            while end + 1 < finishers.count, finishers[end + 1].score == finishers[start].score { end += 1 }
            if start == 0, end > 0, let winner = finishers[0...end].first(where: \.wonPlayoff) {
                let first = rule.points(sharing: 1...1, finishers: finishers.count)
                points[winner.playerID] = NightPoints(eventID: eventID, place: 1, tied: false, points: first + rule.participation, counted: true)
                let rest = rule.points(sharing: 2...(end + 1), finishers: finishers.count)
                for result in finishers[0...end] where result.playerID != winner.playerID {
                    points[result.playerID] = NightPoints(eventID: eventID, place: 2, tied: end > 1, points: rest + rule.participation, counted: true)
                }
                start = end + 1
                continue
            }
            let shared = rule.points(sharing: (start + 1)...(end + 1), finishers: finishers.count)
            for result in finishers[start...end] {
                points[result.playerID] = NightPoints(
                    eventID: eventID, place: start + 1, tied: end > start, points: shared + rule.participation, counted: true)
            }
            start = end + 1
        }
        for result in results where result.dnf {
            points[result.playerID] = NightPoints(eventID: eventID, place: nil, tied: false, points: rule.participation, counted: true)
        }
        return points
    }

    /// `nights` in season order; `names` for display; `divisionOrder` the season's divisions.
    public static func compute(nights: [Night], rule: PointsRule, names: [UUID: String], divisionOrder: [String]) -> SeasonStandings {
        // Per division, each player's nights in that division.
        var byDivision: [String: [UUID: [NightPoints]]] = [:]
        var present: [String] = []
        for night in nights {
            let divisions = Dictionary(grouping: night.results, by: \.division)
            for (division, results) in divisions {
                if !present.contains(division) { present.append(division) }
                for (placed, result) in Self.night(results, eventID: night.eventID, rule: rule) {
                    for player in night.teams[placed] ?? [placed] {
                        byDivision[division, default: [:]][player, default: []].append(result)
                    }
                }
            }
        }
        let order = Divisions.ordered(present: present, preferred: divisionOrder) + (present.contains("") ? [""] : [])
        let nightIndex = Dictionary(uniqueKeysWithValues: nights.enumerated().map { ($1.eventID, $0) })
        return SeasonStandings(
            divisions: order.map { division in
                var entries = (byDivision[division] ?? [:]).map { player, played in
                    Self.entry(player, name: names[player] ?? "Unknown player", nights: played, rule: rule, nightIndex: nightIndex)
                }
                rank(&entries, countBack: rule.countBack)
                return Division(name: division, entries: entries)
            })
    }

    static func entry(_ player: UUID, name: String, nights: [NightPoints], rule: PointsRule, nightIndex: [UUID: Int]) -> Entry {
        var nights = nights.sorted { (nightIndex[$0.eventID] ?? 0) < (nightIndex[$1.eventID] ?? 0) }
        if let best = rule.bestNights, nights.count > best {
            // The best K by points; of equal nights, the earlier counts.
            let kept = Set(
                nights.indices.sorted { nights[$0].points != nights[$1].points ? nights[$0].points > nights[$1].points : $0 < $1 }.prefix(best))
            for index in nights.indices { nights[index].counted = kept.contains(index) }
        }
        let counted = nights.filter(\.counted)
        return Entry(
            position: "", playerID: player, displayName: name, points: counted.reduce(0) { $0 + $1.points }, nightsCounted: counted.count,
            wins: nights.filter { $0.place == 1 && !$0.tied }.count, nights: nights)
    }

    /// Points, most first; level players share a position unless the season counts back
    /// (most wins, then best single night).
    static func rank(_ entries: inout [Entry], countBack: Bool) {
        func key(_ entry: Entry) -> [Int] {
            countBack ? [entry.points, entry.wins, entry.nights.filter(\.counted).map(\.points).max() ?? 0] : [entry.points]
        }
        entries.sort { lhs, rhs in
            let (a, b) = (key(lhs), key(rhs))
            if a != b { return a.lexicographicallyPrecedes(b) == false }
            return lhs.displayName != rhs.displayName ? lhs.displayName < rhs.displayName : lhs.playerID.lowercasedText < rhs.playerID.lowercasedText
        }
        var start = 0
        while start < entries.count {
            var end = start
            while end + 1 < entries.count, key(entries[end + 1]) == key(entries[start]) { end += 1 }
            for index in start...end { entries[index].position = end > start ? "T\(start + 1)" : "\(start + 1)" }
            start = end + 1
        }
    }
}
