import Foundation

/// The bag-tag rule (the common club rule; the pool's page says it in words). A completed tag
/// round exchanges the tags of the players who finished it holding one: ordered by total
/// strokes (fewest first; on a tie the lower incoming tag first), they receive the pooled tags
/// in ascending order. Rounds and a coach's moves apply in the order they happened: a round by
/// when it started (its id breaking a tie), a move by its clock reading. Everything here is
/// derived, so a correction to an earlier round re-derives every later swap and a reopened
/// round gives its swap back until it completes again.
public enum BagTags {
    /// A completed tag round as the rule reads it.
    public struct Round: Hashable, Sendable {
        public var id: UUID
        public var startedAt: Date
        /// Everyone who finished (not DNF, not withdrawn, every hole scored).
        public var finishers: [Finisher]

        public init(id: UUID, startedAt: Date, finishers: [Finisher]) {
            self.id = id
            self.startedAt = startedAt
            self.finishers = finishers
        }
    }

    public struct Finisher: Hashable, Sendable {
        public var playerID: UUID
        public var strokes: Int

        public init(playerID: UUID, strokes: Int) {
            self.playerID = playerID
            self.strokes = strokes
        }
    }

    /// One player's tag before and after a change (nil: none).
    public struct Movement: Hashable, Sendable {
        public var playerID: UUID
        public var from: Int?
        public var to: Int?

        public init(playerID: UUID, from: Int?, to: Int?) {
            self.playerID = playerID
            self.from = from
            self.to = to
        }
    }

    /// One entry of the pool's history, oldest first.
    public struct Change: Hashable, Sendable {
        public enum Kind: String, Sendable { case round, assign, reclaim, trade, challenge }
        public var at: Date
        public var kind: Kind
        public var roundID: UUID?
        public var moveID: UUID?
        /// A challenge's: issued then (its players in `challenge`, no tag moves by itself).
        public var challenge: TagChallenge?
        public var recordedBy: UUID?
        /// A round's: every player who put a tag in, in finishing order. A move's: each
        /// player whose tag changed.
        public var movements: [Movement]
    }

    public struct Holder: Hashable, Sendable {
        public var tag: Int
        public var playerID: UUID
        /// When they came to hold this tag.
        public var since: Date
    }

    /// A player's record in one pool.
    public struct PlayerRecord: Hashable, Sendable {
        public var tag: Int?
        public var since: Date?
        /// The lowest tag they ever held.
        public var best: Int?
        /// Tag rounds after which they held the pool's first tag.
        public var roundsAsFirst: Int
    }

    public struct Ledger: Sendable {
        public var pool: TagPool
        /// In tag order.
        public var holders: [Holder]
        public var unassigned: [Int]
        public var history: [Change]
        /// The pool's challenges, newest first.
        public var challenges: [TagChallenge] = []

        /// Who held which tag once every change before `moment` applied.
        public func holders(before moment: Date) -> [UUID: Int] {
            var tags: [UUID: Int] = [:]
            for change in history where change.at < moment {
                for movement in change.movements {
                    tags[movement.playerID] = movement.to
                }
            }
            return tags
        }

        public func record(of playerID: UUID) -> PlayerRecord? {
            var best: Int?
            var roundsAsFirst = 0
            var seen = false
            for change in history {
                for movement in change.movements where movement.playerID == playerID {
                    seen = true
                    if let to = movement.to { best = min(best ?? to, to) }
                    if change.kind == .round, movement.to != nil, movement.to == pool.numbers.first { roundsAsFirst += 1 }
                }
            }
            guard seen else { return nil }
            let holder = holders.first { $0.playerID == playerID }
            return PlayerRecord(tag: holder?.tag, since: holder?.since, best: best, roundsAsFirst: roundsAsFirst)
        }

        /// The tag round's exchange, if `roundID` is a completed tag round of this pool.
        public func exchange(in roundID: UUID) -> Change? {
            history.first { $0.kind == .round && $0.roundID == roundID }
        }
    }

    /// Applies the pool's moves and completed tag rounds in the order they happened.
    public static func derive(pool: TagPool, moves: [TagMove], rounds: [Round], challenges: [TagChallenge] = []) -> Ledger {
        enum Step {
            case move(TagMove)
            case round(Round)
            case challenge(TagChallenge)
        }
        func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
        let mine = challenges.filter { $0.poolID == pool.id }
        let steps: [(millis: Int64, tie: String, step: Step)] =
            moves.filter { $0.poolID == pool.id }.map { ($0.recordedAt.wallMillis, "m/" + $0.recordedAt.description, .move($0)) }
            + rounds.map { (millis($0.startedAt), "r/" + $0.id.lowercasedText, .round($0)) }
            + mine.map { (millis($0.createdAt), "c/" + $0.id.lowercasedText, .challenge($0)) }
        let inPool = Set(pool.numbers)
        var holderOf: [Int: UUID] = [:]
        var tagOf: [UUID: Int] = [:]
        var since: [Int: Date] = [:]
        var history: [Change] = []

        func apply(_ movements: [Movement], at: Date) {
            for movement in movements {
                if let from = movement.from, holderOf[from] == movement.playerID { holderOf[from] = nil }
                tagOf[movement.playerID] = nil
            }
            for movement in movements {
                guard let to = movement.to else { continue }
                holderOf[to] = movement.playerID
                tagOf[movement.playerID] = to
                if movement.from != to { since[to] = at }
            }
        }

        for (millis, _, step) in steps.sorted(by: { ($0.millis, $0.tie) < ($1.millis, $1.tie) }) {
            let at = Date(timeIntervalSince1970: Double(millis) / 1000)
            var movements: [Movement] = []
            let kind: Change.Kind
            var roundID: UUID?
            var move: TagMove?
            var challenge: TagChallenge?
            switch step {
            case .challenge(let issued):
                kind = .challenge
                challenge = issued
                roundID = issued.roundID
            case .move(let made):
                move = made
                kind = Change.Kind(rawValue: made.kind.name) ?? .assign
                switch made.kind {
                case .assign(let tag, let player):
                    guard inPool.contains(tag), holderOf[tag] != player else { continue }
                    if let previous = holderOf[tag] { movements.append(Movement(playerID: previous, from: tag, to: nil)) }
                    movements.append(Movement(playerID: player, from: tagOf[player], to: tag))
                case .reclaim(let tag):
                    guard let holder = holderOf[tag] else { continue }
                    movements.append(Movement(playerID: holder, from: tag, to: nil))
                case .trade(let a, let b):
                    guard let tagA = tagOf[a], let tagB = tagOf[b] else { continue }
                    movements = [Movement(playerID: a, from: tagA, to: tagB), Movement(playerID: b, from: tagB, to: tagA)]
                }
            case .round(let round):
                kind = .round
                roundID = round.id
                var seen = Set<UUID>()
                let entering = round.finishers.filter { tagOf[$0.playerID] != nil && seen.insert($0.playerID).inserted }
                    .map { (finisher: $0, tag: tagOf[$0.playerID] ?? 0) }
                let order = entering.sorted { ($0.finisher.strokes, $0.tag) < ($1.finisher.strokes, $1.tag) }
                let tags = entering.map(\.tag).sorted()
                movements = zip(order, tags).map { Movement(playerID: $0.finisher.playerID, from: $0.tag, to: $1) }
            }
            apply(movements, at: at)
            history.append(
                Change(
                    at: at, kind: kind, roundID: roundID, moveID: move?.id, challenge: challenge,
                    recordedBy: move?.recordedBy ?? challenge?.createdBy,
                    movements: movements))
        }
        let holders = holderOf.map { Holder(tag: $0.key, playerID: $0.value, since: since[$0.key] ?? .distantPast) }.sorted { $0.tag < $1.tag }
        return Ledger(
            pool: pool, holders: holders, unassigned: pool.numbers.filter { holderOf[$0] == nil }, history: history,
            challenges: mine.sorted { ($0.createdAt, $0.id.lowercasedText) > ($1.createdAt, $1.id.lowercasedText) })
    }
}
