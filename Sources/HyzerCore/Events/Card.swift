import Foundation

/// A group that plays and scores together, from a starting hole (shotgun) or at a tee time.
public struct Card: Hashable, Sendable, Codable, Identifiable {
    public var id: UUID
    public var name: String
    public var startingHole: Int
    public var teeTime: Date?
    /// In throwing order on the first tee.
    public var playerIDs: [UUID]

    public static let sizeRange = 1...6

    public init(id: UUID, name: String, startingHole: Int, teeTime: Date? = nil, playerIDs: [UUID]) {
        self.id = id
        self.name = name
        self.startingHole = startingHole
        self.teeTime = teeTime
        self.playerIDs = playerIDs
    }

    /// The holes in the order this card plays them: from its starting hole, wrapping round.
    public func holeOrder(_ holes: [Int]) -> [Int] {
        guard let start = holes.firstIndex(of: startingHole) else { return holes }
        return Array(holes[start...] + holes[..<start])
    }

    /// The hole after `hole` in this card's order; nil after the last.
    public func hole(after hole: Int, of holes: [Int]) -> Int? {
        let order = holeOrder(holes)
        guard let index = order.firstIndex(of: hole), index + 1 < order.count else { return nil }
        return order[index + 1]
    }
}

/// Groups a round's players into cards the way tournament directors do (PDGA's
/// competition manual): each division on its own cards, players ordered by the standings
/// so far so the leaders play together on the lead card, cards of four where possible and
/// never more than five, the lead cards first.
public enum CardPlanner {
    public static let preferredSize = 4
    public static let maxSize = 5

    /// Card sizes for `count` players: as close to four as possible, the larger cards first.
    public static func sizes(for count: Int) -> [Int] {
        guard count > 0 else { return [] }
        let cards = max(Int((Double(count) / Double(preferredSize)).rounded()), Int((Double(count) / Double(maxSize)).rounded(.up)), 1)
        let base = count / cards
        let extra = count % cards
        return (0..<cards).map { $0 < extra ? base + 1 : base }
    }

    /// The order players are carded in within one division: by the standings so far (rank,
    /// then the score of the latest round, then name), or as registered before a first round.
    public static func order(_ playerIDs: [UUID], by previous: EventDivisionStandings?) -> [UUID] {
        guard let previous else { return playerIDs }
        let rank = Dictionary(previous.entries.enumerated().map { ($1.playerID, $0) }, uniquingKeysWith: { first, _ in first })
        return playerIDs.enumerated().sorted { lhs, rhs in
            let (l, r) = (rank[lhs.element] ?? Int.max, rank[rhs.element] ?? Int.max)
            return l != r ? l < r : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// A random draw within a division: every order equally likely (`generator` fixed in tests).
    public static func draw(_ playerIDs: [UUID], using generator: inout some RandomNumberGenerator) -> [UUID] {
        playerIDs.shuffled(using: &generator)
    }

    /// Cards for groups of players (one group per division, each already in order). With
    /// `shotgun` the cards start on successive holes; otherwise all start on the first hole at
    /// tee times `interval` apart from `firstTee`.
    public static func plan(
        groups: [[UUID]], holes: [Int], shotgun: Bool, firstTee: Date? = nil, interval: TimeInterval = 600, makeID: () -> UUID = UUID.init
    ) -> [Card] {
        var cards: [Card] = []
        for group in groups {
            var rest = group[...]
            for size in sizes(for: group.count) {
                let members = Array(rest.prefix(size))
                rest = rest.dropFirst(size)
                cards.append(card(cards.count, members, holes: holes, shotgun: shotgun, firstTee: firstTee, interval: interval, makeID: makeID))
            }
        }
        return cards
    }

    /// Cards for a team round's teams (in order): two teams to a card where they fit (at most
    /// `CardRules.sizeLimit` players), so team-mates always play together; an odd team out
    /// joins the last card when it fits there too.
    public static func plan(
        teams: [Team], holes: [Int], shotgun: Bool, firstTee: Date? = nil, interval: TimeInterval = 600, makeID: () -> UUID = UUID.init
    ) -> [Card] {
        func players(_ group: [Team]) -> Int { group.reduce(0) { $0 + $1.playerIDs.count } }
        var groups: [[Team]] = []
        for team in teams {
            if let last = groups.last, last.count < 2, players(last) + team.playerIDs.count <= CardRules.sizeLimit {
                groups[groups.count - 1].append(team)
            } else {
                groups.append([team])
            }
        }
        if groups.count > 1, let last = groups.last, last.count == 1, players(groups[groups.count - 2] + last) <= CardRules.sizeLimit {
            groups.removeLast()
            groups[groups.count - 1] += last
        }
        var cards: [Card] = []
        for group in groups {
            cards.append(
                card(cards.count, group.flatMap(\.playerIDs), holes: holes, shotgun: shotgun, firstTee: firstTee, interval: interval, makeID: makeID))
        }
        return cards
    }

    static func card(
        _ index: Int, _ members: [UUID], holes: [Int], shotgun: Bool, firstTee: Date?, interval: TimeInterval, makeID: () -> UUID
    ) -> Card {
        let start = shotgun && !holes.isEmpty ? holes[index % holes.count] : (holes.first ?? 1)
        let tee = shotgun ? firstTee : firstTee.map { $0.addingTimeInterval(Double(index) * interval) }
        return Card(id: makeID(), name: "Card \(index + 1)", startingHole: start, teeTime: tee, playerIDs: members)
    }
}

public enum CardRules {
    /// A round's cards as a coach may set them: each player on at most one card, every card's
    /// players in the round, a starting hole on the course, at most six on a card, names
    /// checked like every other name. Returns the cards with their names as kept (trimmed).
    @discardableResult
    public static func check(_ cards: [Card], round: Round, course: Course) throws(FieldErrors) -> [Card] {
        // The card page scores throws hole by hole; putts made are entered on the round page.
        if round.format == .putting && !cards.isEmpty {
            throw FieldErrors("cards", "A putting round has no cards: each player's putts are entered on the round page, lie by lie.")
        }
        var errors = FieldErrors()
        var seen: Set<UUID> = []
        var names: Set<String> = []
        var checked: [Card] = []
        for var card in cards {
            card.name = TextRules.name(card.name, field: "cards", label: "A card's name", maxLength: 40, into: &errors)
            checked.append(card)
            if !names.insert(card.name.lowercased()).inserted {
                errors.add("cards", "Two cards are named \(card.name): each card needs its own name.")
            }
            if card.playerIDs.isEmpty { errors.add("cards", "\(card.name) has no players.") }
            if card.playerIDs.count > sizeLimit {
                errors.add("cards", "\(card.name) has \(card.playerIDs.count) players: at most \(sizeLimit) play together.")
            }
            if course.hole(card.startingHole) == nil {
                errors.add("cards", "\(card.name) starts on hole \(card.startingHole), which is not on \(course.name).")
            }
            for player in card.playerIDs {
                if !round.playerIDs.contains(player) { errors.add("cards", "\(card.name) names a player who is not in this round.") }
                if !seen.insert(player).inserted { errors.add("cards", "A player is listed twice, on one card or on two.") }
            }
        }
        // A team plays together: its players on one card.
        for team in round.teams {
            let carded = Set(team.playerIDs.compactMap { player in cards.firstIndex { $0.playerIDs.contains(player) } })
            if carded.count > 1 { errors.add("cards", "A team's players play together: put them on one card.") }
        }
        try errors.throwIfAny()
        return checked
    }

    public static let sizeLimit = Card.sizeRange.upperBound

    /// Cards from a card number per player (as a coach assigns them on a page): "Card N" with
    /// its players in `order`, starting on `starts[N]`.
    public static func cards(numbers: [UUID: Int], starts: [Int: Int], order: [UUID]) throws(FieldErrors) -> [Card] {
        var errors = FieldErrors()
        var cards: [Card] = []
        for number in Set(numbers.values).filter({ $0 > 0 }).sorted() {
            guard let start = starts[number] else {
                errors.add("cards", "Card \(number) needs a starting hole.")
                continue
            }
            cards.append(Card(id: UUID(), name: "Card \(number)", startingHole: start, playerIDs: order.filter { numbers[$0] == number }))
        }
        try errors.throwIfAny()
        return cards
    }
}
