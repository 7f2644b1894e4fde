import Foundation

public enum RoundStatus: String, Codable, CaseIterable, Sendable {
    case scheduled, active, completed

    /// Rounds only move forward: scheduled → active → completed.
    public func canMove(to next: RoundStatus) -> Bool {
        switch (self, next) {
        case (.scheduled, .active), (.active, .completed): true
        default: false
        }
    }
}

public struct Round: Identifiable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    public var courseID: UUID
    /// In the order they were added: the scorecard lists them this way.
    public var playerIDs: [UUID]
    public var status: RoundStatus
    public var startedAt: Date?
    public var completedAt: Date?
    public var createdBy: UUID?
    public var createdAt: Date
    public var updatedAt: HLC
    /// The event (tournament, league night) this round is part of.
    public var eventID: UUID?
    /// Each player's division by name; empty in a round without divisions.
    public var divisions: [UUID: String]
    /// The groups that play and score together.
    public var cards: [Card]
    /// Removed while it has scores: its results stay, the home page and the TV leave it out.
    public var archived = false
    /// Players who left the round after scoring: they stay on the card as history and count
    /// as did-not-finish (a player withdrawn before scoring leaves the round altogether).
    public var withdrawn: Set<UUID> = []
    /// The bag-tag pool whose tags this round exchanges once completed (`BagTags`).
    public var tagsID: UUID?
    /// Stroke play, or a team format whose `teams` take the players' places on the boards.
    public var format: RoundFormat = .stroke
    /// On a team round: every player in exactly one team, in the order the boards list them.
    public var teams: [Team] = []
    /// How a cali (a player left alone by an odd count) plays, on a team round that has one.
    public var caliRule: CaliRule?
    /// On a match-play round: the bracket match it plays (a second one with the same match is
    /// its sudden death).
    public var matchID: UUID?
    /// On a putting round: its stations, distances and putts; its lies take the holes' place.
    public var putting: PuttingSetup?
    /// On a mulligan night (stroke play): what each player is given and may buy.
    public var mulligans: MulliganRule?

    public static let playerCountRange = 1...200

    /// A round's new name, checked as the new-round form checks it.
    public static func validatedName(_ raw: String?) throws(FieldErrors) -> String {
        var errors = FieldErrors()
        let name = TextRules.name(raw, field: "name", label: "Round name", maxLength: 80, into: &errors)
        try errors.throwIfAny()
        return name
    }

    public init(
        id: UUID, name: String, courseID: UUID, playerIDs: [UUID], status: RoundStatus,
        startedAt: Date? = nil, completedAt: Date? = nil, createdBy: UUID? = nil, createdAt: Date, updatedAt: HLC,
        eventID: UUID? = nil, divisions: [UUID: String] = [:], cards: [Card] = []
    ) {
        self.eventID = eventID
        self.divisions = divisions
        self.cards = cards
        self.id = id
        self.name = name
        self.courseID = courseID
        self.playerIDs = playerIDs
        self.status = status
        self.startedAt = startedAt
        self.completedAt = completedAt
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// The new-round form: a name, a course, the players, and whether to start at once.
public struct RoundDraft: Sendable, Hashable {
    public var name: String?
    public var courseID: String?
    public var playerIDs: [String]
    public var startNow: Bool
    public var eventID: String?
    /// Player id text → division name, for a round with divisions.
    public var divisions: [String: String]
    /// The bag-tag pool a tag round exchanges.
    public var tagsID: String?
    /// A team format's name (blank: stroke play), its teams set by hand or a draw, and the
    /// cali's rule.
    public var format: String?
    public var teams: [TeamDraft]?
    public var draw: DrawDraft?
    public var caliRule: String?
    /// A bracket's match this match-play round plays (the store fills in its two players).
    public var matchID: String?
    /// On a putting round: its layout, checked by `PuttingSetup.validated`.
    public var putting: PuttingSetup?
    /// On a mulligan night: the allowance, checked by `MulliganRule.validated`.
    public var mulligans: MulliganRule?

    /// A team as given: player id texts, and whether it is a cali.
    public struct TeamDraft: Sendable, Hashable {
        public var playerIDs: [String]
        public var cali: Bool

        public init(playerIDs: [String], cali: Bool = false) {
            self.playerIDs = playerIDs
            self.cali = cali
        }
    }

    public struct DrawDraft: Sendable, Hashable {
        public var teamsOf: Int?
        public var balance: String?

        public init(teamsOf: Int? = nil, balance: String? = nil) {
            self.teamsOf = teamsOf
            self.balance = balance
        }
    }

    public init(
        name: String? = nil, courseID: String? = nil, playerIDs: [String] = [], startNow: Bool = true, eventID: String? = nil,
        divisions: [String: String] = [:], tagsID: String? = nil
    ) {
        self.tagsID = tagsID
        self.eventID = eventID
        self.divisions = divisions
        self.name = name
        self.courseID = courseID
        self.playerIDs = playerIDs
        self.startNow = startNow
    }

    public struct Valid: Sendable, Hashable {
        public var name: String
        public var courseID: UUID
        public var playerIDs: [UUID]
        public var startNow: Bool
        public var eventID: UUID?
        public var divisions: [UUID: String]
        public var tagsID: UUID?
        public var format: RoundFormat = .stroke
        /// Teams set by hand (ids given), or none while a `draw` is to make them.
        public var teams: [Team] = []
        public var draw: TeamDraw.Request?
        public var caliRule: CaliRule?
        public var matchID: UUID?
        public var putting: PuttingSetup?
        public var mulligans: MulliganRule?

        public init(
            name: String, courseID: UUID, playerIDs: [UUID], startNow: Bool, eventID: UUID? = nil, divisions: [UUID: String] = [:],
            tagsID: UUID? = nil
        ) {
            self.tagsID = tagsID
            self.eventID = eventID
            self.divisions = divisions
            self.name = name
            self.courseID = courseID
            self.playerIDs = playerIDs
            self.startNow = startNow
        }
    }

    /// Checks the draft against what exists; `defaultName` names the round (by its course and
    /// event) when the person left it blank.
    public func validated(
        knownCourses: Set<UUID>, knownPlayers: Set<UUID>, events: [UUID: Event] = [:], knownPools: Set<UUID> = [],
        defaultName: (UUID, Event?) -> String
    )
        throws(FieldErrors) -> Valid
    {
        var errors = FieldErrors()
        var event: Event?
        let eventText = TextRules.cleaned(eventID)
        if !eventText.isEmpty {
            event = UUID(text: eventText).flatMap { events[$0] }
            if event == nil { errors.add("eventID", "That event does not exist.") }
        }
        let course = UUID(text: TextRules.cleaned(courseID))
        if TextRules.cleaned(courseID).isEmpty {
            errors.add("courseID", "Choose a course.")
        } else if course.map({ knownCourses.contains($0) }) != true {
            errors.add("courseID", "That course does not exist.")
        }

        var players: [UUID] = []
        for text in playerIDs {
            guard let id = UUID(text: TextRules.cleaned(text)), knownPlayers.contains(id) else {
                errors.add("playerIDs", "One of the chosen players does not exist.")
                continue
            }
            if !players.contains(id) { players.append(id) }
        }
        if players.isEmpty && errors["playerIDs"] == nil {
            errors.add("playerIDs", "Choose at least one player.")
        } else if players.count > Round.playerCountRange.upperBound {
            errors.add("playerIDs", "A round can have at most \(Round.playerCountRange.upperBound) players.")
        }

        var divisions: [UUID: String] = [:]
        for (playerText, raw) in self.divisions {
            let text = TextRules.cleaned(raw)
            guard !text.isEmpty, let player = UUID(text: TextRules.cleaned(playerText)), players.contains(player) else { continue }
            guard let division = Division.validated(text) else {
                errors.add("divisions", "Division names are 1 to \(Division.maxLength) letters, digits, spaces or dashes.")
                continue
            }
            if let event, event.divisions.isEmpty {
                errors.add("divisions", "\(event.name) has no divisions: its rounds are one field.")
                continue
            }
            if let event, !event.divisions.isEmpty, !event.divisions.contains(division) {
                errors.add("divisions", "\(division) is not a division of \(event.name) (\(event.divisions.joined(separator: ", "))).")
                continue
            }
            divisions[player] = division
        }
        if let event, !event.divisions.isEmpty, errors["divisions"] == nil, players.contains(where: { divisions[$0] == nil }) {
            errors.add("divisions", "Choose a division for every player: \(event.name) has divisions.")
        }

        let pool = Self.validatedPool(tagsID, knownPools: knownPools, into: &errors)
        var name = TextRules.cleaned(self.name)
        if name.isEmpty, let course, knownCourses.contains(course) {
            name = defaultName(course, event)
        } else if !name.isEmpty {
            name = TextRules.name(name, field: "name", label: "Round name", maxLength: 80, into: &errors)
        }
        let format = RoundFormat.parse(self.format, into: &errors)
        let teamSetup = validatedTeams(format: format, players: players, pool: pool, into: &errors)
        let match = TextRules.cleaned(matchID)
        if format == .match {
            if players.count != 2 && errors["playerIDs"] == nil { errors.add("playerIDs", "A match is between two players.") }
            if pool != nil { errors.add("tagsID", "A match-play round cannot exchange bag tags.") }
        } else if !match.isEmpty {
            errors.add("matchID", "A bracket's match is played as a match-play round (\"format\": \"match\").")
        }
        var putting: PuttingSetup?
        if format == .putting {
            do { putting = try PuttingSetup.validated(self.putting) } catch { errors.merge(error) }
            if pool != nil { errors.add("tagsID", "A putting round cannot exchange bag tags.") }
        } else if self.putting != nil {
            errors.add("putting", "A putting layout belongs to a putting round (\"format\": \"putting\").")
        }
        var mulligans: MulliganRule?
        if let rule = self.mulligans {
            if format != .stroke {
                errors.add("mulligans", "Mulligans belong to stroke play: a \(format.label.lowercased()) round has none.")
            } else {
                do { mulligans = try MulliganRule.validated(rule) } catch { errors.merge(error) }
            }
        }
        try errors.throwIfAny()
        // `course` is non-nil here: a missing or unknown course added an error above.
        var valid = Valid(
            name: name, courseID: course ?? UUID(), playerIDs: players, startNow: startNow, eventID: event?.id, divisions: divisions, tagsID: pool)
        valid.format = format
        valid.matchID = UUID(text: match)
        valid.putting = putting
        valid.mulligans = mulligans
        (valid.teams, valid.draw, valid.caliRule) = teamSetup
        return valid
    }

    /// A team round's teams (by hand) or draw, and its cali rule; nothing on stroke play.
    func validatedTeams(format: RoundFormat, players: [UUID], pool: UUID?, into errors: inout FieldErrors)
        -> (teams: [Team], draw: TeamDraw.Request?, caliRule: CaliRule?)
    {
        let rule = TextRules.cleaned(caliRule)
        guard format.isTeam else {
            if teams != nil || draw != nil || !rule.isEmpty {
                errors.add(
                    "format",
                    "Teams, a draw and a cali rule belong to a team format (\(RoundFormat.teamFormats.map(\.rawValue).joined(separator: ", "))).")
            }
            return ([], nil, nil)
        }
        if pool != nil { errors.add("tagsID", "A team round cannot exchange bag tags: tags are each player's own.") }
        var caliRule: CaliRule?
        if !rule.isEmpty {
            caliRule = CaliRule(rawValue: rule)
            if caliRule == nil {
                errors.add("caliRule", "The cali rule must be one of \(CaliRule.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
        }
        switch (teams, draw) {
        case (.some, .some), (nil, nil):
            errors.add("teams", "A team round needs its teams: send \"teams\" set by hand or a \"draw\", one of the two.")
            return ([], nil, caliRule)
        case (nil, .some(let draw)):
            let size = draw.teamsOf ?? 2
            if !TeamDraw.Request.sizes.contains(size) {
                errors.add("draw", "Teams of \(TeamDraw.Request.sizes.lowerBound) or \(TeamDraw.Request.sizes.upperBound) players can be drawn.")
            }
            let balanceText = TextRules.cleaned(draw.balance)
            let balance = balanceText.isEmpty ? TeamDraw.Balance.none : TeamDraw.Balance(rawValue: balanceText)
            if balance == nil {
                errors.add("draw", "Balance must be one of \(TeamDraw.Balance.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            if players.count <= size && errors["playerIDs"] == nil {
                errors.add("playerIDs", "A draw of teams of \(size) needs at least \(size + 1) players: two teams or more.")
            }
            return ([], TeamDraw.Request(teamsOf: size, balance: balance ?? .none), caliRule)
        case (.some(let drafts), nil):
            var teams: [Team] = []
            for draft in drafts {
                var members: [UUID] = []
                for text in draft.playerIDs {
                    guard let id = UUID(text: TextRules.cleaned(text)), players.contains(id) else {
                        errors.add("teams", "A team names a player who is not in this round.")
                        continue
                    }
                    members.append(id)
                }
                teams.append(Team(id: .random(), playerIDs: members, cali: draft.cali))
            }
            let valid = Team.validated(teams, players: players, into: &errors)
            return (valid, nil, caliRule ?? (valid.contains(where: \.cali) ? .twoDiscs : nil))
        }
    }

    /// A tag round's pool: blank for none, else one that exists.
    public static func validatedPool(_ raw: String?, knownPools: Set<UUID>, into errors: inout FieldErrors) -> UUID? {
        let text = TextRules.cleaned(raw)
        guard !text.isEmpty else { return nil }
        guard let pool = UUID(text: text), knownPools.contains(pool) else {
            errors.add("tagsID", "That bag-tag pool does not exist.")
            return nil
        }
        return pool
    }
}
