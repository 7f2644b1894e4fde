import Foundation
import HyzerCore
import HyzerStore

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
    /// Bag-tag pools, for a tag round.
    var tagPools: [Option] = []
    var hasTagPools = false

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
        let format = form.values["format"] ?? ""
        matchID = form.values["matchID"].flatMap { $0.isEmpty ? nil : $0 }
        formats = ([RoundFormat.stroke, .match] + RoundFormat.teamFormats + [.putting]).map {
            Option(value: $0.rawValue, label: $0.label, selected: $0.rawValue == format)
        }
        let size = form.values["teamsOf"] ?? "2"
        teamSizes = TeamDraw.Request.sizes.map { Option(value: String($0), label: "Teams of \($0)", selected: String($0) == size) }
        let balance = form.values["balance"] ?? ""
        balances = [
            Option(value: TeamDraw.Balance.none.rawValue, label: "At random", selected: balance == TeamDraw.Balance.none.rawValue),
            Option(value: TeamDraw.Balance.rating.rawValue, label: "Balanced by rating", selected: balance == TeamDraw.Balance.rating.rawValue),
            Option(value: TeamDraw.Balance.handicap.rawValue, label: "Balanced by handicap", selected: balance == TeamDraw.Balance.handicap.rawValue),
        ]
        let rule = form.values["caliRule"] ?? ""
        caliRules = CaliRule.allCases.map { Option(value: $0.rawValue, label: $0.label, selected: $0.rawValue == rule) }
    }

    /// Stroke play or a team format; a team round's draw (teams of 2 or 3, at random or
    /// balanced) and what a cali does.
    var formats: [Option] = []
    /// A bracket's match this round plays (its two players play it).
    var matchID: String?
    var teamSizes: [Option] = []
    var balances: [Option] = []
    var caliRules: [Option] = []
}
