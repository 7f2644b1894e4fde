import Foundation
import HyzerCore
import HyzerStore

/// The round page: scorecard, score entry, conflicts and the leaderboard.
struct RoundPage: Sendable {
    var title: String
    var round: RoundHeader
    var scorecard: ScorecardView
    var leaderboard: LeaderboardView
    var playerOptions: [Option]
    var holeOptions: [Option]
    /// A putting round's entry: the putts made from a lie, 0 to `puttsPerLie`.
    var putting: PuttingEntry?
    var form: FormState
    var cards: [CardLink]
    var hasCards: Bool
    /// Cards are planned before the first score; after it they stay (pages open on phones).
    var canPlanCards: Bool
    /// A putting round has no cards (`CardRules`): its putts are entered here.
    var takesCards: Bool
    var hasEvent: Bool
    var eventID: String
    var eventName: String
    /// How each hole plays in this round, once someone has finished one.
    var holeStats: HoleStatisticsView?
    /// A tag round's tags in play, or exchanged once it is completed.
    var tags: TagRoundView?
    /// A team round's format, its rule, its teams and what its cali does.
    var format: FormatNote?
    /// A mulligan night: the allowance, each player's mulligans, and a coach's sale form.
    var mulligans: MulligansSection?

    struct MulligansSection: Sendable {
        struct Line: Sendable {
            var name: String
            var text: String
            var left: Int
            var holes: String
            /// Used more than they have: entered on two devices apart. A coach corrects a hole.
            var over: Bool
        }

        var summary: String
        var lines: [Line]
        var canSell: Bool
        var players: [Option]
    }

    struct PuttingEntry: Sendable {
        var puttsPerLie: Int
    }

    struct FormatNote: Sendable {
        struct TeamLine: Sendable {
            var name: String
        }

        var label: String
        var rule: String
        var cali: String?
        var teams: [TeamLine]
        var hasTeams: Bool

        /// A match-play round: how the match stands after this round's holes.
        var match: String?
        /// A bracket's match: where to see how it stands.
        var bracketLink: String?
        /// A putting round's stations, distances and putts, in a sentence.
        var layout: String?

        init?(_ board: RoundBoard) {
            let snapshot = board.snapshot
            guard snapshot.round.format != .stroke else { return nil }
            label = snapshot.round.format.label
            rule = snapshot.round.format.rule
            if let putting = snapshot.round.putting {
                let distances = putting.distances.map { "\($0.feet) ft (\($0.points) point\($0.points == 1 ? "" : "s") a putt)" }
                layout =
                    "\(putting.stations) station\(putting.stations == 1 ? "" : "s"), each at \(distances.joined(separator: ", ")); "
                    + "\(putting.putts) putt\(putting.putts == 1 ? "" : "s") from each distance, \(putting.maxPoints) points at most."
            }
            // A bracket's match may span rounds (its sudden death): the bracket tells how it
            // stands; a match on its own is this round alone.
            if snapshot.round.matchID != nil, let eventID = snapshot.round.eventID {
                bracketLink = "/events/\(Format.id(eventID))/bracket"
            } else if snapshot.round.format == .match, snapshot.round.playerIDs.count == 2 {
                let round = BracketState.MatchRound(board)
                let play = MatchPlay.compute(round.holes, regulation: round.regulation)
                let names = snapshot.round.playerIDs.map { snapshot.playerName($0) ?? "Unknown player" }
                let leader = play.up >= 0 ? names[0] : names[1]
                match =
                    if let winner = play.winner, let result = play.result {
                        "\(winner == .a ? names[0] : names[1]) wins \(play.played > play.regulation ? "at the " : "")\(result)"
                    } else if play.played == 0 {
                        "\(names[0]) v \(names[1]): not under way yet"
                    } else if play.inSuddenDeath {
                        "All square after \(play.played) holes: sudden death decides it"
                    } else {
                        play.up == 0 ? "All square after \(play.played)" : "\(leader) \(abs(play.up)) up after \(play.played)"
                    }
            }
            cali = snapshot.round.teams.contains(where: \.cali) ? (snapshot.round.caliRule ?? .twoDiscs).label : nil
            let names = snapshot.reporterNames
            teams = snapshot.round.teams.map { TeamLine(name: $0.name(names)) }
            hasTeams = !teams.isEmpty
        }
    }

    struct CardLink: Sendable {
        var id: String
        var name: String
        var startingHole: Int
        var players: String
        var mine: Bool
    }

    init(board: RoundBoard, form: FormState = FormState(), viewer: UUID? = nil, viewerRole: Role? = nil) {
        let snapshot = board.snapshot
        let names = snapshot.playerNames
        // On a team round the viewer scores as their team.
        let viewer = viewer.map(snapshot.round.scoredAs)
        format = FormatNote(board)
        cards = snapshot.round.cards.map { card in
            CardLink(
                id: Format.id(card.id), name: card.name, startingHole: card.startingHole,
                players: card.playerIDs.compactMap { names[$0] }.joined(separator: ", "), mine: viewer.map(card.playerIDs.contains) ?? false)
        }
        hasCards = !cards.isEmpty
        takesCards = snapshot.round.format != .putting
        canPlanCards = takesCards && snapshot.events.isEmpty && snapshot.round.status != .completed
        hasEvent = snapshot.event != nil
        eventID = snapshot.event.map { Format.id($0.id) } ?? ""
        eventName = snapshot.event?.name ?? ""
        title = snapshot.round.name
        round = board.header
        scorecard = board.scorecard
        leaderboard = board.leaderboard
        let holes = HoleStatisticsView(course: snapshot.course, statistics: .of([board], course: snapshot.course))
        holeStats = holes.hasScores && snapshot.round.format != .putting ? holes : nil
        let chosenPlayer = form.values["playerID"]
        let chosenHole = form.values["hole"] ?? Self.nextHole(snapshot, scores: board.scores)
        // An athlete scores themselves and the players of their card: offer only those.
        let scorable = viewer.flatMap { id in
            viewerRole == .athlete
                ? Set(snapshot.round.cards.filter { $0.playerIDs.contains(id) }.flatMap(\.playerIDs).map(Format.id) + [Format.id(id)]) : nil
        }
        // A withdrawn player takes no more scores (the store refuses them): not offered.
        let withdrawn = Set(snapshot.round.withdrawn.map(Format.id))
        playerOptions = scorecard.rows.filter { (scorable?.contains($0.playerID) ?? true) && !withdrawn.contains($0.playerID) }
            .map { Option(value: $0.playerID, label: $0.displayName, selected: $0.playerID == chosenPlayer) }
        let putting = snapshot.round.putting
        self.putting = putting.map { PuttingEntry(puttsPerLie: $0.putts) }
        holeOptions = snapshot.course.holes.map { hole in
            let label = putting?.lie(hole.number).map(\.label) ?? "Hole \(hole.number) · par \(hole.par)"
            return Option(value: String(hole.number), label: label, selected: String(hole.number) == chosenHole)
        }
        self.form = form
        if let rule = snapshot.round.mulligans {
            let accounts = MulliganBook.accounts(snapshot, scores: board.scores)
            let chosen = form.values["salePlayerID"]
            mulligans = MulligansSection(
                summary: rule.summary,
                lines: accounts.map { account in
                    .init(
                        name: names[account.playerID] ?? "Unknown player", text: account.text, left: account.left,
                        holes: account.holes.map(String.init).joined(separator: ", "), over: account.left < 0)
                },
                canSell: rule.forSale > 0 && viewerRole?.includes(.coach) == true && snapshot.round.status != .completed && !snapshot.round.archived,
                players: accounts.map {
                    Option(value: Format.id($0.playerID), label: names[$0.playerID] ?? "Unknown player", selected: Format.id($0.playerID) == chosen)
                })
        }
    }

    /// The first hole nobody has scored yet: where a group scoring together most likely is.
    static func nextHole(_ snapshot: RoundSnapshot, scores: CurrentScores) -> String {
        let scored = Set(scores.holes.keys.map(\.hole))
        return String(snapshot.course.holes.first { !scored.contains($0.number) }?.number ?? 1)
    }
}
