import Foundation
import HyzerCore
import HyzerStore

// Page contexts: plain data built from store values, rendered by the templates of the
// same name. Templates read stored properties only, so every value they show is stored.

struct Option: Sendable {
    var value: String
    var label: String
    var selected: Bool
}

struct RoundItem: Sendable {
    var id: String
    var name: String
    var courseName: String
    var status: String
    var when: String
    var playerCount: Int

    init(_ summary: RoundSummary) {
        id = Format.id(summary.id)
        name = summary.name
        courseName = summary.courseName
        status = summary.status.rawValue
        when = Format.date(summary.startedAt ?? summary.createdAt)
        playerCount = summary.playerCount
    }
}

struct HomePage: Sendable {
    var title = "Rounds"
    var active: [RoundItem]
    var others: [RoundItem]
    var hasRounds: Bool
    var hasActive: Bool
    var hasOthers: Bool
    var events: [EventItem]
    var hasEvents: Bool

    /// Links to the neighbouring pages of rounds, when there are some.
    var newerHref: String?
    var olderHref: String?
    var hasPaging: Bool

    init(summaries: [RoundSummary], events: [Event] = [], page: Int = 1, hasMore: Bool = false) {
        // Events are listed once, with the newest rounds.
        self.events =
            page == 1
            ? events.prefix(20).map { EventItem(id: Format.id($0.id), name: $0.name, divisions: $0.divisions.joined(separator: " · ")) } : []
        hasEvents = !self.events.isEmpty
        newerHref = page > 1 ? (page == 2 ? "/" : "/?page=\(page - 1)") : nil
        olderHref = hasMore ? "/?page=\(page + 1)" : nil
        hasPaging = newerHref != nil || olderHref != nil
        if page > 1 { title = "Rounds, page \(page)" }
        active = summaries.filter { $0.status == .active }.map(RoundItem.init)
        others = summaries.filter { $0.status != .active }.map(RoundItem.init)
        hasRounds = !summaries.isEmpty
        hasActive = !active.isEmpty
        hasOthers = !others.isEmpty
    }
}

/// The round page: scorecard, score entry, conflicts and the leaderboard.
struct RoundPage: Sendable {
    var title: String
    var round: RoundHeader
    var scorecard: ScorecardView
    var leaderboard: LeaderboardView
    var playerOptions: [Option]
    var holeOptions: [Option]
    var form: FormState
    var cards: [CardLink]
    var hasCards: Bool
    /// Cards are planned before the first score; after it they stay (pages open on phones).
    var canPlanCards: Bool
    var hasEvent: Bool
    var eventID: String
    var eventName: String
    /// How each hole plays in this round, once someone has finished one.
    var holeStats: HoleStatisticsView?

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
        cards = snapshot.round.cards.map { card in
            CardLink(
                id: Format.id(card.id), name: card.name, startingHole: card.startingHole,
                players: card.playerIDs.compactMap { names[$0] }.joined(separator: ", "), mine: viewer.map(card.playerIDs.contains) ?? false)
        }
        hasCards = !cards.isEmpty
        canPlanCards = snapshot.events.isEmpty && snapshot.round.status != .completed
        hasEvent = snapshot.event != nil
        eventID = snapshot.event.map { Format.id($0.id) } ?? ""
        eventName = snapshot.event?.name ?? ""
        title = snapshot.round.name
        round = board.header
        scorecard = board.scorecard
        leaderboard = board.leaderboard
        let holes = HoleStatisticsView(course: snapshot.course, statistics: .of([board], course: snapshot.course))
        holeStats = holes.hasScores ? holes : nil
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
        holeOptions = snapshot.course.holes.map {
            Option(value: String($0.number), label: "Hole \($0.number) · par \($0.par)", selected: String($0.number) == chosenHole)
        }
        self.form = form
    }

    /// The first hole nobody has scored yet: where a group scoring together most likely is.
    static func nextHole(_ snapshot: RoundSnapshot, scores: CurrentScores) -> String {
        let scored = Set(scores.holes.keys.map(\.hole))
        return String(snapshot.course.holes.first { !scored.contains($0.number) }?.number ?? 1)
    }
}

struct LeaderboardPage: Sendable {
    var title: String
    var round: RoundHeader
    var leaderboard: LeaderboardView

    var division: String
    var filters: [Option]
    var hasFilters: Bool

    /// `division` shows one division alone (the live stream keeps to it too).
    init(board: RoundBoard, division: String? = nil) {
        title = "Leaderboard · \(board.snapshot.round.name)"
        round = board.header
        let whole = board.leaderboard
        let chosen = whole.divisions.contains { $0.name == division } ? division ?? "" : ""
        self.division = chosen
        leaderboard = chosen.isEmpty ? whole : whole.only(chosen)
        filters =
            [Option(value: "", label: "All", selected: chosen.isEmpty)]
            + whole.divisions.map { Option(value: Self.query($0.name), label: $0.name, selected: $0.name == chosen) }
        hasFilters = whole.hasDivisions
    }

    /// A division name as a query value ("Am+2" must not read as "Am 2").
    static func query(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// Correcting one recorded score (or resolving a conflict on that hole).
struct CorrectionPage: Sendable {
    var title = "Correct a score"
    var round: RoundHeader
    var eventID: String
    var playerID: String
    var playerName: String
    var hole: Int
    var par: Int
    var current: String
    var conflict: Bool
    var others: [String]
    /// Every value entered for this hole now standing, with who entered it: a coach picks one
    /// with one tap.
    var entries: [Entry]
    var form: FormState

    struct Entry: Sendable {
        var value: String
        var strokes: String
        var penalties: Int
        var enteredBy: String
        var isCurrent: Bool
    }

    init?(board: RoundBoard, eventID: UUID, form: FormState? = nil) {
        let snapshot = board.snapshot
        guard let event = snapshot.events.first(where: { $0.id == eventID }) else { return nil }
        round = board.header
        self.eventID = Format.id(eventID)
        playerID = Format.id(event.playerID)
        playerName = snapshot.playerNames[event.playerID] ?? "Unknown player"
        hole = event.hole
        par = snapshot.course.hole(event.hole)?.par ?? 0
        let state = board.scores[event.playerID, event.hole]
        current = event.strokes.description
        conflict = state?.isConflict ?? false
        others = state?.leaves.filter { $0.id != eventID }.map(\.strokes.description) ?? []
        let names = snapshot.names
        entries = (state?.leaves ?? [event]).enumerated().map { index, leaf in
            Entry(
                value: leaf.resultText, strokes: leaf.strokes.description, penalties: leaf.penalties,
                enteredBy: leaf.reportedBy.flatMap { names[$0] } ?? "a device without a signed-in scorer",
                isCurrent: index == 0)
        }
        self.form = form ?? FormState(values: ["strokes": event.strokes.description, "penalties": String(event.penalties)])
    }
}

/// Where a create-or-edit form posts and what it says: the same template makes a new
/// record and edits one (with its remove button).
struct FormTarget: Sendable {
    var action: String
    var heading: String
    var submit: String
    /// Set when editing: the form that removes the record.
    var removeAction: String?

    static func edit(_ path: String, _ name: String) -> FormTarget {
        FormTarget(action: path, heading: "Edit \(name)", submit: "Save changes", removeAction: "\(path)/remove")
    }
}

struct CourseFormPage: Sendable {
    /// A row of the edit page's table of holes.
    struct HoleRow: Sendable {
        var number: Int
        var par: String
        var distance: String
    }

    var title = "New course"
    var form: FormState
    var target = FormTarget(action: "/courses", heading: "New course", submit: "Create course")
    var isEdit = false
    /// The edit page's holes (the new-course form takes lists instead).
    var holes: [HoleRow] = []
}

struct PlayerFormPage: Sendable {
    var title = "New player"
    var form: FormState
    var roles: [Option]
    var target = FormTarget(action: "/players", heading: "New player", submit: "Add player")
    var isEdit = false
    /// The club's divisions, suggested for the usual division.
    var divisionChoices: [String] = []

    init(form: FormState, creator: Role) {
        self.form = form
        let chosen = form.values["role"] ?? Role.athlete.rawValue
        roles = creator.grantable.map { Option(value: $0.rawValue, label: $0.rawValue.capitalized, selected: $0.rawValue == chosen) }
    }
}

struct RoundFormPage: Sendable {
    struct PlayerChoice: Sendable {
        var id: String
        var displayName: String
        var handle: String
        var checked: Bool
        var hasDivisions: Bool
        var divisions: [Option]
    }

    var title = "New round"
    var courses: [Option]
    var players: [PlayerChoice]
    var hasCourses: Bool
    var hasPlayers: Bool
    var startNow: Bool
    var form: FormState
    var events: [Option]

    init(
        courses: [Course], players: [Player], form: FormState, chosenPlayers: Set<String>, startNow: Bool, events: [Event] = [],
        chosenDivisions: [String: String] = [:]
    ) {
        let chosenEvent = form.values["eventID"]
        self.events = events.map { Option(value: Format.id($0.id), label: $0.name, selected: Format.id($0.id) == chosenEvent) }
        let divisionNames = events.first { Format.id($0.id) == chosenEvent }?.divisions ?? []
        // The club's only course is the one: chosen for the director.
        let asked = form.values["courseID"].flatMap { $0.isEmpty ? nil : $0 }
        let chosenCourse = asked ?? (courses.count == 1 ? courses.first.map { Format.id($0.id) } : nil)
        self.courses = courses.map {
            Option(
                value: Format.id($0.id), label: "\($0.name) · \($0.holes.count) holes, par \($0.totalPar)", selected: Format.id($0.id) == chosenCourse
            )
        }
        self.players = players.map { player in
            let id = Format.id(player.id)
            return PlayerChoice(
                id: id, displayName: player.displayName, handle: player.handle.value, checked: chosenPlayers.contains(id),
                hasDivisions: !divisionNames.isEmpty,
                divisions: divisionNames.map { Option(value: $0, label: $0, selected: (chosenDivisions[id] ?? player.division) == $0) })
        }
        hasCourses = !courses.isEmpty
        hasPlayers = !players.isEmpty
        self.startNow = startNow
        self.form = form
    }
}

struct MessagePage: Sendable {
    var title: String
    var message: String
}

struct TVPage: Sendable {
    var title = "TV"
    var boards: TVScreen
    var pinnedRound: String
    var pageSeconds: Int
}

struct EventPage: Sendable {
    var title: String
    var board: EventBoardView
    var form: FormState
    /// The season this is a league night of, if any.
    var seasonLink: String?
    var seasonName: String?
    /// The night's day in words, when it has one.
    var playedOn: String?
    /// Who is checked in, and the forms to check in (league nights of a season).
    var checkIn: CheckInSection?
    /// How each layout's holes play over the event's rounds.
    var holeStats: [HoleStatisticsView] = []
}

/// A league night's check-in: the list, the night's fee count, and the forms.
struct CheckInSection: Sendable {
    struct Entry: Sendable {
        var playerID: String
        var displayName: String
        var handle: String
        var division: String
        var paid: Bool
        /// A coach may mark the fee and take anyone off; a player only themselves, before the night starts.
        var canUndo = false
        var canMarkFee = false
    }

    var eventID: String
    var summary: String
    var entries: [Entry]
    var hasEntries: Bool
    var divisions: [Option]
    /// The viewer's own form: their division chosen when known.
    var selfDivisions: [Option]
    var hasDivisions: Bool
    var canCheckInSelf: Bool
    var selfID: String
    var selfLabel: String
    var isCoach: Bool
    /// The club's players not checked in, for a coach to tick many at once.
    var players: [Choice]
    var hasPlayers: Bool
    /// The viewer's own division is not known: they choose it (no division is assumed).
    var selfDivisionUnknown: Bool
    /// "You're checked in", after a player's own check-in, while the list still has them.
    var checkedInNotice: String?

    /// A player a coach may tick: their division shown when known, asked for when not.
    struct Choice: Sendable {
        var id: String
        var name: String
        var known: String?
        var divisions: [Option]
        var chosen: Bool
        var paid: Bool
    }

    /// The night's check-in link works (a coach opened it, the night is not over): the page
    /// shows it with its QR code.
    var isOpen = false
    var canOpen = false
    var link = ""
    /// The link names this machine's own address (no --public-url): phones cannot open it.
    var linkWarning = false
    var signInLink: String?

    /// The night is over: nobody checks in any more (a coach still settles fees).
    var isOver = false
    /// The fee ledger, for coaches: "18:42 Cory Coach: Ann paid".
    var fees: [String] = []
    var hasFees = false

    init(
        event: Event, entries: [DomainStore.CheckInEntry], viewer: Identity?, players: [Player], known: [UUID: String] = [:], started: Bool = false,
        over: Bool = false, form: FormState = FormState()
    ) {
        isOver = over
        eventID = Format.id(event.id)
        let coach = viewer?.role.includes(.coach) == true
        self.entries = entries.map {
            var entry = Entry(
                playerID: Format.id($0.checkIn.playerID), displayName: $0.displayName, handle: $0.handle, division: $0.checkIn.division,
                paid: $0.checkIn.paid && CheckIn.showsFee(of: $0.checkIn.playerID, to: viewer))
            entry.canMarkFee = coach
            entry.canUndo = coach || (!started && $0.checkIn.playerID == viewer?.playerID)
            return entry
        }
        hasEntries = !entries.isEmpty
        let paid = entries.filter(\.checkIn.paid).count
        summary = "\(entries.count) checked in · \(paid) paid the entry fee"
        let mine = viewer.flatMap { me in entries.first { $0.checkIn.playerID == me.playerID } }
        let chosen = mine?.checkIn.division ?? viewer.flatMap { known[$0.playerID] } ?? ""
        selfDivisionUnknown = !event.divisions.contains(chosen)
        divisions = event.divisions.map { Option(value: $0, label: $0, selected: false) }
        selfDivisions =
            (selfDivisionUnknown ? [Option(value: "", label: "Choose your division", selected: true)] : [])
            + event.divisions.map { Option(value: $0, label: $0, selected: $0 == chosen) }
        hasDivisions = !event.divisions.isEmpty
        // Once the night has started, a player's division is a coach's to change.
        canCheckInSelf = viewer != nil && !over && !(started && mine != nil && !coach)
        selfID = viewer.map { Format.id($0.playerID) } ?? ""
        selfLabel = mine == nil ? "Check me in" : "Change my division"
        isCoach = viewer?.role.includes(.coach) == true
        let checkedIn = Set(entries.map(\.checkIn.playerID))
        self.players =
            isCoach
            ? players.filter { !checkedIn.contains($0.id) }.map { player in
                let id = Format.id(player.id)
                let asked = form.values["division.\(id)"] ?? ""
                return Choice(
                    id: id, name: player.displayName, known: known[player.id],
                    divisions: [Option(value: "", label: "Division…", selected: asked.isEmpty)]
                        + event.divisions.map { Option(value: $0, label: $0, selected: $0 == asked) },
                    chosen: form.values["chosen.\(id)"] != nil, paid: form.values["paid.\(id)"] != nil)
            } : []
        hasPlayers = !self.players.isEmpty
    }
}

struct EventFormPage: Sendable {
    var title = "New event"
    var form: FormState
    var target = FormTarget(action: "/events", heading: "New event", submit: "Create the event")
    var isEdit = false
    /// Seasons the new event can be a league night of (none when editing).
    /// Stored, not computed: templates see only stored properties.
    var seasons: [Option] = [] {
        didSet { hasSeasons = !seasons.isEmpty }
    }
    var hasSeasons = false

    static func seasonOptions(_ seasons: [Season], chosen: String?) -> [Option] {
        [Option(value: "", label: "No season (a night of its own)", selected: chosen?.isEmpty ?? true)]
            + seasons.map { Option(value: Format.id($0.id), label: $0.name, selected: Format.id($0.id) == chosen) }
    }
}

struct EventItem: Sendable {
    var id: String
    var name: String
    var divisions: String
}
