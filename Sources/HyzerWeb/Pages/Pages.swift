import Foundation
import HyzerCore

// Page contexts: plain data built from store values, rendered by the templates of the
// same name. Templates read stored properties only, so every value they show is stored.

struct Option: Sendable {
    var value: String
    var label: String
    var selected: Bool
}

enum Display {
    static func date(_ date: Date?) -> String {
        guard let date else { return "" }
        return date.formatted(.dateTime.weekday(.abbreviated).day().month(.abbreviated).hour().minute())
    }

    /// With the year and seconds, for records people compare (backups, store events).
    static func timestamp(_ date: Date) -> String {
        date.formatted(.dateTime.year().month(.abbreviated).day().hour().minute().second())
    }

    static func id(_ id: UUID) -> String { id.lowercasedText }
}

struct RoundItem: Sendable {
    var id: String
    var name: String
    var courseName: String
    var status: String
    var when: String
    var playerCount: Int

    init(_ summary: RoundSummary) {
        id = Display.id(summary.id)
        name = summary.name
        courseName = summary.courseName
        status = summary.status.rawValue
        when = Display.date(summary.startedAt ?? summary.createdAt)
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

    init(summaries: [RoundSummary]) {
        active = summaries.filter { $0.status == .active }.map(RoundItem.init)
        others = summaries.filter { $0.status != .active }.map(RoundItem.init)
        hasRounds = !summaries.isEmpty
        hasActive = !active.isEmpty
        hasOthers = !others.isEmpty
    }
}

struct RoundHeader: Sendable {
    var id: String
    var name: String
    var courseName: String
    var status: String
    var isScheduled: Bool
    var isActive: Bool
    var isCompleted: Bool
    var holeCount: Int
    var totalPar: Int
    var started: String?

    init(_ snapshot: RoundSnapshot) {
        id = Display.id(snapshot.round.id)
        name = snapshot.round.name
        courseName = snapshot.course.name
        status = snapshot.round.status.rawValue
        isScheduled = snapshot.round.status == .scheduled
        isActive = snapshot.round.status == .active
        isCompleted = snapshot.round.status == .completed
        holeCount = snapshot.course.holes.count
        totalPar = snapshot.course.totalPar
        started = snapshot.round.startedAt.map { Display.date($0) }
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

    init(snapshot: RoundSnapshot, form: FormState = FormState()) {
        title = snapshot.round.name
        round = RoundHeader(snapshot)
        let scores = snapshot.scores
        let standings = Standings.compute(course: snapshot.course, round: snapshot.round, players: snapshot.players, scores: scores)
        scorecard = ScorecardView(course: snapshot.course, round: snapshot.round, players: snapshot.players, scores: scores, standings: standings, version: snapshot.version)
        leaderboard = LeaderboardView(standings: standings, roundName: snapshot.round.name, courseName: snapshot.course.name, status: snapshot.round.status, version: snapshot.version)
        let chosenPlayer = form.values["playerID"]
        let chosenHole = form.values["hole"] ?? Self.nextHole(snapshot, scores: scores)
        playerOptions = scorecard.rows.map { Option(value: $0.playerID, label: $0.displayName, selected: $0.playerID == chosenPlayer) }
        holeOptions = snapshot.course.holes.map { Option(value: String($0.number), label: "Hole \($0.number) · par \($0.par)", selected: String($0.number) == chosenHole) }
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

    init(snapshot: RoundSnapshot) {
        title = "Leaderboard · \(snapshot.round.name)"
        round = RoundHeader(snapshot)
        leaderboard = snapshot.leaderboard
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
    var form: FormState

    init?(snapshot: RoundSnapshot, eventID: UUID, form: FormState? = nil) {
        guard let event = snapshot.events.first(where: { $0.id == eventID }) else { return nil }
        round = RoundHeader(snapshot)
        self.eventID = Display.id(eventID)
        playerID = Display.id(event.playerID)
        playerName = snapshot.playerNames[event.playerID] ?? "Unknown player"
        hole = event.hole
        par = snapshot.course.hole(event.hole)?.par ?? 0
        let state = snapshot.scores[event.playerID, event.hole]
        current = event.strokes.description
        conflict = state?.isConflict ?? false
        others = state?.leaves.filter { $0.id != eventID }.map(\.strokes.description) ?? []
        self.form = form ?? FormState(values: ["strokes": event.strokes.description])
    }
}

struct CourseFormPage: Sendable {
    var title = "New course"
    var form: FormState
}

struct PlayerFormPage: Sendable {
    var title = "New player"
    var form: FormState
    var roles: [Option]

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
    }

    var title = "New round"
    var courses: [Option]
    var players: [PlayerChoice]
    var hasCourses: Bool
    var hasPlayers: Bool
    var startNow: Bool
    var form: FormState

    init(courses: [Course], players: [Player], form: FormState, chosenPlayers: Set<String>, startNow: Bool) {
        let chosenCourse = form.values["courseID"]
        self.courses = courses.map { Option(value: Display.id($0.id), label: "\($0.name) · \($0.holes.count) holes, par \($0.totalPar)", selected: Display.id($0.id) == chosenCourse) }
        self.players = players.map { PlayerChoice(id: Display.id($0.id), displayName: $0.displayName, handle: $0.handle.value, checked: chosenPlayers.contains(Display.id($0.id))) }
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

/// The TV screen's boards: every active round, each with the shared leaderboard partial.
struct TVBoards: Sendable {
    struct Board: Sendable {
        var roundID: String
        var name: String
        var courseName: String
        var leaderboard: LeaderboardView
    }

    var rounds: [Board]

    init(snapshots: [RoundSnapshot]) {
        rounds = snapshots.map {
            Board(roundID: Display.id($0.round.id), name: $0.round.name, courseName: $0.course.name, leaderboard: $0.leaderboard)
        }
    }
}

struct TVPage: Sendable {
    var title = "TV"
    var boards: TVBoards
    var pinnedRound: String
    var pageSeconds: Int
}
