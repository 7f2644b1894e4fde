import Foundation
import HyzerCore

/// A bag-tag pool: holders in tag order with their movement over the last week, the free
/// tags, the rule in words, a coach's moves and every change, newest first.
struct TagPoolPage: Sendable {
    struct Row: Sendable {
        var tag: Int
        var playerID: String
        var displayName: String
        var since: String
        /// "↑2", "↓1", "new" or "–" against a week ago.
        var movement: String
        var movementLabel: String
    }

    struct Change: Sendable {
        var day: String
        var what: String
        var roundLink: String?
        var moves: String
    }

    struct Choice: Sendable {
        var value: String
        var label: String
    }

    static let rule = """
        When a tag round is completed, the players who finished it holding a tag of this pool put their tags in. \
        They are ordered by total strokes, fewest first (on a tie, the lower incoming tag goes first), and the pooled \
        tags are handed back lowest first in that order. Players who did not finish, withdrew or hold no tag keep \
        what they had. Rounds count in the order they were played, so correcting or reopening an old round \
        re-derives every swap after it; a coach's assignments, reclaims and trades fall where they were recorded.
        """

    var title: String
    var id: String
    var meta: String
    var rule = Self.rule
    var rows: [Row]
    var hasHolders: Bool
    var unassigned: String?
    var changes: [Change]
    var hasChanges: Bool
    var freeTags: [Choice]
    var heldTags: [Choice]
    var untagged: [Choice]
    var holders: [Choice]
    /// The trade's second list, on the second holder, so the form is not refused as it opens.
    var tradeWith: [Option] = []
    /// What the last form did (the layout's own `notice` is for its fixed texts).
    var done: String?
    var error: String?
    /// The history shown is one tag's (`?tag=N`).
    var historyOf: Int?

    struct Challenge: Sendable {
        var challengeID: String
        var text: String
        var state: String
        var open: Bool
        var roundLink: String?
        var canAnswer: Bool
        var canWithdraw: Bool
    }

    /// Open ones first, then the rest, newest first.
    var challenges: [Challenge] = []
    var hasChallenges = false
    /// The viewer may issue a challenge: a coach for anyone, a holder for themselves.
    var canChallenge = false
    var challengeForOthers = false
    var courses: [Choice] = []

    static func describe(_ challenge: TagChallenge, names: [UUID: String], at moment: Date) -> String {
        let challenged = challenge.challengedIDs.map { names[$0] ?? "Unknown player" }.joined(separator: ", ")
        return "\(names[challenge.challengerID] ?? "Unknown player") challenged \(challenged) (\(challenge.state(at: moment)))"
    }

    /// What `viewer` may do with the pool's challenges.
    mutating func showChallenges(_ ledger: BagTags.Ledger, names: [UUID: String], viewer: UUID?, coach: Bool, courses: [(UUID, String)], now: Date) {
        let ordered = ledger.challenges.filter { $0.state(at: now) == "open" } + ledger.challenges.filter { $0.state(at: now) != "open" }
        challenges = ordered.map { challenge in
            let open = challenge.state(at: now) == "open"
            return Challenge(
                challengeID: Format.id(challenge.id), text: Self.describe(challenge, names: names, at: now),
                state: open ? "answer by \(Format.date(challenge.deadline))" : challenge.state(at: now), open: open,
                roundLink: challenge.roundID.map { "/rounds/\(Format.id($0))" },
                canAnswer: open && challenge.refusal(of: .accept, by: viewer, coach: coach, at: now) == nil,
                canWithdraw: open && challenge.refusal(of: .withdraw, by: viewer, coach: coach, at: now) == nil)
        }
        hasChallenges = !challenges.isEmpty
        let holding = Set(ledger.holders.map(\.playerID))
        challengeForOthers = coach
        canChallenge = ledger.holders.count > 1 && (coach || viewer.map(holding.contains) == true)
        self.courses = courses.map { Choice(value: Format.id($0.0), label: $0.1) }
    }

    init(
        _ ledger: BagTags.Ledger, names: [UUID: String], allPlayers: [(UUID, String)], seasonName: String?, now: Date, historyOf tag: Int? = nil
    ) {
        historyOf = tag
        title = ledger.pool.name
        id = Format.id(ledger.pool.id)
        let count = ledger.pool.numbers.count
        meta = ([count == 1 ? "1 tag" : "\(count) tags"] + [seasonName].compactMap { $0 }).joined(separator: " · ")
        let weekAgo = ledger.holders(before: now.addingTimeInterval(-7 * 86_400))
        rows = ledger.holders.map { holder in
            let (movement, label): (String, String) =
                switch weekAgo[holder.playerID] {
                case nil: ("new", "new this week")
                case let old? where old > holder.tag: ("↑\(old - holder.tag)", "up \(old - holder.tag) since last week")
                case let old? where old < holder.tag: ("↓\(holder.tag - old)", "down \(holder.tag - old) since last week")
                default: ("–", "unchanged since last week")
                }
            return Row(
                tag: holder.tag, playerID: Format.id(holder.playerID), displayName: names[holder.playerID] ?? "Unknown player",
                since: holder.since == .distantPast ? "" : Format.date(holder.since), movement: movement, movementLabel: label)
        }
        hasHolders = !rows.isEmpty
        unassigned = ledger.unassigned.isEmpty ? nil : ledger.unassigned.map(String.init).joined(separator: ", ")
        let history = ledger.history.filter { change in tag.map { tag in change.movements.contains { $0.from == tag || $0.to == tag } } ?? true }
        changes = history.reversed().map { change in
            let what =
                switch change.kind {
                case .round: "Tag round"
                case .assign: "Assigned"
                case .reclaim: "Reclaimed"
                case .trade: "Trade"
                case .challenge: "Challenge"
                }
            return Change(
                day: Format.date(change.at), what: what, roundLink: change.roundID.map { "/rounds/\(Format.id($0))" },
                moves: change.challenge.map { Self.describe($0, names: names, at: now) }
                    ?? change.movements.map { movement in
                        let name = names[movement.playerID] ?? "Unknown player"
                        let from = movement.from.map { "#\($0)" } ?? "no tag"
                        let to = movement.to.map { "#\($0)" } ?? "no tag"
                        return movement.from == movement.to ? "\(name) keeps \(to)" : "\(name) \(from) → \(to)"
                    }.joined(separator: "; "))
        }
        hasChanges = !changes.isEmpty
        freeTags = ledger.unassigned.map { Choice(value: String($0), label: "#\($0)") }
        heldTags = ledger.holders.map { Choice(value: String($0.tag), label: "#\($0.tag) (\(names[$0.playerID] ?? "Unknown player"))") }
        let holding = Set(ledger.holders.map(\.playerID))
        untagged = allPlayers.filter { !holding.contains($0.0) }.map { Choice(value: Format.id($0.0), label: $0.1) }
        holders = ledger.holders.map { Choice(value: Format.id($0.playerID), label: "\(names[$0.playerID] ?? "Unknown player") (#\($0.tag))") }
        tradeWith = holders.enumerated().map { Option(value: $1.value, label: $1.label, selected: $0 == 1) }
    }
}

/// The new-pool form.
struct TagPoolFormPage: Sendable {
    var form: FormState
    var seasons: [Option]
}
