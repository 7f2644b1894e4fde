import Foundation

/// A single-elimination bracket of an event: the seeds and, for every match, an id (so a round
/// can play it) and a deadline per bracket round. Who plays whom after the first round, the
/// results and who advances are never stored: `BracketState.derive` reads them from the match
/// rounds' scores, so a correction re-derives every later match.
public struct Bracket: Identifiable, Hashable, Sendable {
    public var id: UUID
    public var eventID: UUID
    /// Players, best seed first.
    public var seeds: [UUID]
    /// Per bracket round (first round first), one id per match.
    public var matchIDs: [[UUID]]
    /// Per bracket round: when its matches are to be played by.
    public var deadlines: [Date?]
    /// Match id → the player who conceded it.
    public var conceded: [UUID: UUID]
    public var createdBy: UUID?
    public var createdAt: Date
    public var updatedAt: HLC

    public static let seedRange = 2...128

    public init(
        id: UUID, eventID: UUID, seeds: [UUID], matchIDs: [[UUID]], deadlines: [Date?] = [], conceded: [UUID: UUID] = [:], createdBy: UUID?,
        createdAt: Date, updatedAt: HLC
    ) {
        self.id = id
        self.eventID = eventID
        self.seeds = seeds
        self.matchIDs = matchIDs
        self.deadlines = deadlines
        self.conceded = conceded
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The bracket's size: the power of two the seeds fill (the rest are byes).
    public static func size(for count: Int) -> Int {
        var size = 2
        while size < count { size *= 2 }
        return size
    }

    /// Seed numbers (1-based) in bracket order: 1 v 16, 8 v 9, 4 v 13… so the best seeds meet
    /// last and the byes go to the best seeds.
    public static func order(size: Int) -> [Int] {
        var order = [1, 2]
        while order.count < size {
            let next = order.count * 2 + 1
            order = order.flatMap { [$0, next - $0] }
        }
        return order
    }

    /// A new bracket's match ids: size/2 in the first round, half as many in each after.
    public static func matchIDs(seeds: Int, make: () -> UUID = UUID.init) -> [[UUID]] {
        var rounds: [[UUID]] = []
        var count = size(for: seeds) / 2
        while count >= 1 {
            rounds.append((0..<count).map { _ in make() })
            count /= 2
        }
        return rounds
    }

    /// Checks seeds given by hand: 2 to 128 distinct players that exist.
    public static func validatedSeeds(_ texts: [String], known: Set<UUID>) throws(FieldErrors) -> [UUID] {
        var errors = FieldErrors()
        var seeds: [UUID] = []
        var (unknown, twice) = (false, false)
        for text in texts {
            guard let id = UUID(text: TextRules.cleaned(text)), known.contains(id) else {
                unknown = true
                continue
            }
            if seeds.contains(id) { twice = true } else { seeds.append(id) }
        }
        // Each reason once, however many seeds give it.
        if unknown { errors.add("seeds", "A seed is not a player of the club.") }
        if twice { errors.add("seeds", "A player can be seeded only once.") }
        if !seedRange.contains(texts.count) || (errors.isEmpty && !seedRange.contains(seeds.count)) {
            errors.add("seeds", "A bracket has \(seedRange.lowerBound) to \(seedRange.upperBound) seeds.")
        }
        try errors.throwIfAny()
        return seeds
    }
}

/// A bracket as its matches stand: who meets whom, each match's holes up and result, and who
/// advances. A pure function of the bracket and its match rounds' scores.
public struct BracketState: Hashable, Sendable {
    public struct Match: Hashable, Sendable, Identifiable {
        public var id: UUID
        /// 1-based bracket round, and the match's place in it.
        public var round: Int
        public var index: Int
        public var a: UUID?
        public var b: UUID?
        /// The seeds of a and b (first round), for the page.
        public var seedA: Int?
        public var seedB: Int?
        /// The rounds played for it: the match, then any sudden-death rounds.
        public var roundIDs: [UUID]
        public var play: MatchPlay?
        public var winner: UUID?
        /// A side with nobody to meet in the first round goes through.
        public var bye: Bool
        public var deadline: Date?

        public var result: String? { bye ? nil : play?.result }

        /// "wins 3&2", "wins at the 20th", "wins: the other side conceded".
        public var wonHow: String? {
            guard let result else { return nil }
            if result == "conceded" { return "goes through: the other side conceded" }
            if let play, play.played > play.regulation { return "wins at the \(result)" }
            return "wins \(result)"
        }
        /// Holes up for a (negative: b is up).
        public var holesUp: Int { play?.up ?? 0 }
        public var ready: Bool { a != nil && b != nil && winner == nil }
    }

    /// What one round of a match gives: the two sides' strokes per hole, in play order.
    public struct MatchRound: Hashable, Sendable {
        public var roundID: UUID
        /// Its two sides, a then b: a round counts for a match only while they are the match's
        /// (a corrected earlier match can change who meets whom).
        public var sides: [UUID]
        public var holes: [MatchPlay.Hole]
        /// The round's holes: the first round of a match is its regulation.
        public var regulation: Int

        public init(roundID: UUID, sides: [UUID], holes: [MatchPlay.Hole], regulation: Int) {
            self.roundID = roundID
            self.sides = sides
            self.holes = holes
            self.regulation = regulation
        }
    }

    public var rounds: [[Match]]
    public var champion: UUID?

    /// `plays`: each match's rounds in the order they were made (the first is the match, the
    /// rest sudden death).
    public static func derive(_ bracket: Bracket, plays: [UUID: [MatchRound]]) -> BracketState {
        let size = Bracket.size(for: bracket.seeds.count)
        let order = Bracket.order(size: size)
        var rounds: [[Match]] = []
        var entrants: [UUID?] = order.map { $0 <= bracket.seeds.count ? bracket.seeds[$0 - 1] : nil }
        for (roundIndex, ids) in bracket.matchIDs.enumerated() {
            var matches: [Match] = []
            for (index, id) in ids.enumerated() {
                let a = entrants.indices.contains(index * 2) ? entrants[index * 2] : nil
                let b = entrants.indices.contains(index * 2 + 1) ? entrants[index * 2 + 1] : nil
                let first = roundIndex == 0
                var match = Match(
                    id: id, round: roundIndex + 1, index: index, a: a, b: b,
                    seedA: first ? order[index * 2] : nil, seedB: first ? order[index * 2 + 1] : nil,
                    roundIDs: [], play: nil, winner: nil, bye: false,
                    deadline: bracket.deadlines.indices.contains(roundIndex) ? bracket.deadlines[roundIndex] : nil)
                if first, (a == nil) != (b == nil) {
                    match.bye = true
                    match.winner = a ?? b
                } else if let a, let b {
                    let played = (plays[id] ?? []).filter { $0.sides == [a, b] }
                    match.roundIDs = played.map(\.roundID)
                    let conceder = bracket.conceded[id]
                    let side: MatchPlay.Side? = conceder == a ? .a : conceder == b ? .b : nil
                    if !played.isEmpty || side != nil {
                        let play = MatchPlay.compute(
                            played.flatMap(\.holes), regulation: played.first?.regulation ?? 0, concededBy: side)
                        match.play = play
                        match.winner = play.winner.map { $0 == .a ? a : b }
                    }
                }
                matches.append(match)
            }
            rounds.append(matches)
            entrants = matches.map(\.winner)
        }
        return BracketState(rounds: rounds, champion: rounds.last?.first?.winner)
    }

    public func match(_ id: UUID) -> Match? {
        rounds.lazy.flatMap { $0 }.first { $0.id == id }
    }
}

extension BracketState.MatchRound {
    /// A match round's holes in the order its card plays them (its first two players are the
    /// sides); a DNF loses the hole.
    public init(_ board: RoundBoard) {
        let snapshot = board.snapshot
        let numbers = snapshot.course.holes.map(\.number)
        let order = snapshot.round.cards.first.map { $0.holeOrder(numbers) } ?? numbers
        let sides = snapshot.round.playerIDs
        func strokes(_ side: Int, _ hole: Int) -> Int? {
            guard sides.indices.contains(side), let state = board.scores[sides[side], hole] else { return nil }
            return state.winner.score ?? Strokes.range.upperBound + 1
        }
        self.init(
            roundID: snapshot.round.id, sides: sides, holes: order.map { MatchPlay.Hole(a: strokes(0, $0), b: strokes(1, $0)) },
            regulation: numbers.count)
    }
}

public struct BracketPayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var eventID: UUID
    public var seeds: [UUID]
    public var matchIDs: [[UUID]]
    public var deadlines: [Date?]?
    /// Match id (upper-case text) → the player who conceded it.
    public var conceded: [String: UUID]?
    public var createdBy: UUID?
    public var createdAt: Date

    public init(_ bracket: Bracket) {
        id = bracket.id
        eventID = bracket.eventID
        seeds = bracket.seeds
        matchIDs = bracket.matchIDs
        deadlines = bracket.deadlines.allSatisfy { $0 == nil } ? nil : bracket.deadlines
        conceded =
            bracket.conceded.isEmpty
            ? nil : Dictionary(bracket.conceded.map { ($0.key.uppercasedText, $0.value) }, uniquingKeysWith: { first, _ in first })
        createdBy = bracket.createdBy
        createdAt = bracket.createdAt
    }

    /// Nil when the shape breaks the rules: a match id for every slot, seeds distinct.
    public func bracket(updatedAt: HLC) -> Bracket? {
        guard Bracket.seedRange.contains(seeds.count), Set(seeds).count == seeds.count,
            matchIDs.map(\.count) == Bracket.matchIDs(seeds: seeds.count).map(\.count)
        else { return nil }
        let conceded = (conceded ?? [:]).reduce(into: [UUID: UUID]()) { result, pair in
            if let match = UUID(text: pair.key) { result[match] = pair.value }
        }
        return Bracket(
            id: id, eventID: eventID, seeds: seeds, matchIDs: matchIDs, deadlines: deadlines ?? [], conceded: conceded, createdBy: createdBy,
            createdAt: createdAt, updatedAt: updatedAt)
    }
}

extension Bracket: SyncedRecord {
    public static let noun = "Bracket"
    public static let recordType = RecordType.bracket
    public static let merge = MergeRule.lastWriterWins
    public static let applyOrder = 16
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { updatedAt }
    public var recordPayload: BracketPayload { BracketPayload(self) }
    public static func value(_ payload: BracketPayload, version: HLC) -> Bracket? { payload.bracket(updatedAt: version) }
}
