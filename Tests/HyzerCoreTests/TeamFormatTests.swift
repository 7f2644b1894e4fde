import Foundation
import Testing

@testable import HyzerCore

/// Team rounds: the draw, the teams a coach sets, the round as its boards see it (a team in
/// its players' places), who may score a team, and season points that reach every member.
@Suite struct TeamFormatTests {
    static func generator(_ seed: UInt64) -> SeededGenerator { SeededGenerator(state: seed) }

    @Test(arguments: [2, 3, 4, 5, 7, 8, 9, 11, 20])
    func aRandomDrawPlacesEveryPlayerOnceWithACaliForAnOddOne(count: Int) {
        let players = (0..<count).map { _ in UUID() }
        for size in TeamDraw.Request.sizes {
            var generator = Self.generator(UInt64(count * 10 + size))
            let groups = TeamDraw.draw(players, TeamDraw.Request(teamsOf: size, balance: .none), using: &generator)
            #expect(
                groups.flatMap { $0 }.sorted { $0.lowercasedText < $1.lowercasedText } == players.sorted { $0.lowercasedText < $1.lowercasedText })
            let alone = groups.filter { $0.count == 1 }
            #expect(alone.count == (count % size == 1 ? 1 : 0), "a single player left over plays alone: \(groups.map(\.count))")
            #expect(groups.allSatisfy { $0.count <= size })
            #expect(groups.filter { $0.count < size && $0.count > 1 }.count <= 1, "at most one short team: \(groups.map(\.count))")
        }
    }

    @Test func aSeedReplaysTheDrawAndAnotherSeedDrawsOtherTeams() {
        let players = (0..<12).map { _ in UUID() }
        let request = TeamDraw.Request(teamsOf: 2, balance: .none)
        var first = Self.generator(7)
        var again = Self.generator(7)
        var other = Self.generator(8)
        let drawn = TeamDraw.draw(players, request, using: &first)
        #expect(drawn == TeamDraw.draw(players, request, using: &again))
        #expect(drawn != TeamDraw.draw(players, request, using: &other))
    }

    @Test func aBalancedDrawPairsTheBestWithTheLeast() {
        let players = (0..<8).map { _ in UUID() }
        let strength = Dictionary(uniqueKeysWithValues: players.enumerated().map { ($1, Double(1000 - $0 * 10)) })
        var generator = Self.generator(3)
        let pairs = TeamDraw.draw(players, TeamDraw.Request(teamsOf: 2, balance: .rating), strength: strength, using: &generator)
        let ranks = pairs.map { pair in pair.map { players.firstIndex(of: $0) ?? -1 }.sorted() }.sorted { $0[0] < $1[0] }
        #expect(ranks == [[0, 7], [1, 6], [2, 5], [3, 4]])
        // Teams of three snake through the tiers: every team's summed rank is within one.
        let nine = (0..<9).map { _ in UUID() }
        let ranked = Dictionary(uniqueKeysWithValues: nine.enumerated().map { ($1, Double(-$0)) })
        let triples = TeamDraw.draw(nine, TeamDraw.Request(teamsOf: 3, balance: .rating), strength: ranked, using: &generator)
        let sums = triples.map { $0.reduce(0) { $0 + (nine.firstIndex(of: $1) ?? 0) } }
        #expect(triples.count == 3 && sums.max()! - sums.min()! <= 3, "\(sums)")
        // A player without a rating counts as the weakest.
        var unrated = strength
        unrated[players[0]] = nil
        let withUnrated = TeamDraw.draw(players, TeamDraw.Request(teamsOf: 2, balance: .rating), strength: unrated, using: &generator)
        #expect(withUnrated.contains { $0.contains(players[0]) && $0.contains(players[1]) })
    }

    @Test func teamsSetByHandAreChecked() {
        let players = (0..<5).map { _ in UUID() }
        func errors(_ teams: [Team]) -> FieldErrors {
            var errors = FieldErrors()
            _ = Team.validated(teams, players: players, into: &errors)
            return errors
        }
        let good = [
            Team(id: UUID(), playerIDs: [players[0], players[1]]), Team(id: UUID(), playerIDs: [players[2], players[3]]),
            Team(id: UUID(), playerIDs: [players[4]], cali: true),
        ]
        #expect(errors(good).isEmpty)
        #expect(errors(Array(good.prefix(2)))["teams"] == "Every player of the round must be in a team.")
        #expect(errors([good[0], good[1], Team(id: UUID(), playerIDs: [players[4]])])["teams"]?.contains("cali") == true)
        #expect(
            errors([good[0], Team(id: UUID(), playerIDs: [players[1], players[2], players[3], players[4]])])["teams"]
                == "A player can be in only one team.")
        #expect(errors([Team(id: UUID(), playerIDs: players)])["teams"] != nil)
    }

    func draft(_ format: String?, teams: [RoundDraft.TeamDraft]? = nil, draw: RoundDraft.DrawDraft? = nil, pool: UUID? = nil, world: World)
        -> Result<RoundDraft.Valid, FieldErrors>
    {
        var draft = RoundDraft(courseID: world.course.id.uuidString, playerIDs: world.players.map(\.id.uuidString), tagsID: pool?.uuidString)
        draft.format = format
        draft.teams = teams
        draft.draw = draw
        return Result { () throws(FieldErrors) in
            try draft.validated(
                knownCourses: [world.course.id], knownPlayers: Set(world.players.map(\.id)), knownPools: Set([pool].compactMap { $0 })
            ) { _, _ in "Round" }
        }
    }

    @Test func aTeamRoundNeedsItsTeamsAndStrokePlayTakesNone() throws {
        let world = World(playerCount: 5)
        let ids = world.players.map(\.id.uuidString)
        func field(_ result: Result<RoundDraft.Valid, FieldErrors>, _ name: String) -> String? {
            if case .failure(let errors) = result { return errors[name] }
            return nil
        }
        #expect(field(draft("bestShot", world: world), "teams") != nil)
        #expect(field(draft("bestShot", teams: [], draw: .init(), world: world), "teams") != nil)
        #expect(field(draft(nil, draw: .init(), world: world), "format") != nil)
        #expect(field(draft("putting", world: world), "putting")?.contains("needs its layout") == true)
        #expect(field(draft("golf", world: world), "format") != nil)
        #expect(field(draft("bestShot", draw: .init(teamsOf: 5), world: world), "draw") != nil)
        #expect(field(draft("bestShot", draw: .init(balance: "luck"), world: world), "draw") != nil)
        #expect(field(draft("bestShot", draw: .init(), pool: UUID(), world: world), "tagsID") != nil)
        let drawn = try draft("worstShot", draw: .init(teamsOf: 2, balance: "rating"), world: world).get()
        #expect(drawn.format == .worstShot && drawn.draw == TeamDraw.Request(teamsOf: 2, balance: .rating) && drawn.teams.isEmpty)
        let set = try draft(
            "alternateShot",
            teams: [.init(playerIDs: [ids[0], ids[1]]), .init(playerIDs: [ids[2], ids[3]]), .init(playerIDs: [ids[4]], cali: true)],
            world: world
        ).get()
        #expect(set.teams.map(\.playerIDs.count) == [2, 2, 1] && set.caliRule == .twoDiscs)
        #expect(field(draft("bestShot", teams: [.init(playerIDs: [ids[0], UUID().uuidString])], world: world), "teams") != nil)
    }

    /// Ann & Ben, Cleo & Dev, Eve alone: a best shot round on two cards.
    func teamRound() -> (World, RoundSnapshot, [Team]) {
        var world = World(playerCount: 5)
        let p = world.players.map(\.id)
        let teams = [
            Team(id: UUID(), playerIDs: [p[0], p[1]]), Team(id: UUID(), playerIDs: [p[2], p[3]]), Team(id: UUID(), playerIDs: [p[4]], cali: true),
        ]
        world.round.format = .bestShot
        world.round.teams = teams
        world.round.caliRule = .twoDiscs
        world.round.cards = [
            Card(id: UUID(), name: "Card 1", startingHole: 1, playerIDs: [p[0], p[1], p[2], p[3]]),
            Card(id: UUID(), name: "Card 2", startingHole: 1, playerIDs: [p[4]]),
        ]
        world.round.divisions = [p[0]: "MA1", p[1]: "MA1", p[2]: "MA1", p[3]: "FA1", p[4]: "MA1"]
        var snapshot = RoundSnapshot(round: world.round, course: world.course, players: world.players, events: [], version: 1)
        snapshot.signatures = [
            Signature(id: UUID(), roundID: world.round.id, playerID: p[4], signedBy: p[4], signedAt: world.clock.tick(wallMillis: 1))
        ]
        snapshot.handicaps = [p[0]: 3]
        return (world, snapshot, teams)
    }

    @Test func theBoardsSeeTeamsInTheirPlayersPlaces() {
        let (world, snapshot, teams) = teamRound()
        let view = snapshot.scoringView
        #expect(view.round.playerIDs == teams.map(\.id))
        #expect(view.players.map(\.displayName) == ["Ann & Ben", "Cleo & Dev", "Eve (cali)"])
        #expect(view.round.cards.map(\.playerIDs) == [[teams[0].id, teams[1].id], [teams[2].id]])
        #expect(view.round.divisions.isEmpty, "a team of two divisions makes the round one field")
        var shared = snapshot
        shared.round.divisions[world.players[3].id] = "MA1"
        #expect(shared.scoringView.round.divisions == Dictionary(uniqueKeysWithValues: teams.map { ($0.id, "MA1") }))
        #expect(view.signatures.map(\.playerID) == [teams[2].id])
        #expect(view.handicaps.isEmpty)
        #expect(view.reporterNames[world.players[0].id] == "Ann", "a card still names who entered a score")
        // Stroke play is left as it is.
        #expect(RoundSnapshot(round: world.round, course: world.course, players: world.players, events: [], version: 1).round.format == .bestShot)
        var stroke = world
        stroke.round.teams = []
        stroke.round.format = .stroke
        let plain = RoundSnapshot(round: stroke.round, course: stroke.course, players: stroke.players, events: [], version: 1)
        #expect(plain.scoringView.round.playerIDs == plain.round.playerIDs)
    }

    @Test func aTeamIsRankedOnItsOneScorePerHole() {
        var (world, snapshot, teams) = teamRound()
        func event(_ team: Team, _ hole: Int, _ strokes: Int) -> ScoreEvent {
            world.wall += 1000
            return ScoreEvent(
                id: UUID(), roundID: world.round.id, playerID: team.id, hole: hole, strokes: .count(strokes), deviceID: world.device,
                recordedAt: world.clock.tick(wallMillis: world.wall))
        }
        snapshot.events = [event(teams[0], 1, 2), event(teams[0], 2, 3), event(teams[1], 1, 3), event(teams[2], 1, 2), event(teams[2], 2, 2)]
        let board = snapshot.scoringView.board
        #expect(board.standings.entries.map(\.displayName) == ["Eve (cali)", "Ann & Ben", "Cleo & Dev"])
        #expect(board.standings.entries.map(\.toPar) == [-2, -1, 0])
        #expect(board.standings.entries.map(\.position) == ["1", "2", "3"])
        #expect(board.scorecard.rows.map(\.displayName) == ["Ann & Ben", "Cleo & Dev", "Eve (cali)"])
    }

    @Test func aTeamIsScoredByItsPlayersAndItsCardMatesOnly() {
        let (world, snapshot, teams) = teamRound()
        let view = snapshot.scoringView
        func may(_ player: Int, _ team: Team) -> Bool {
            ScorePermission.allows(
                Identity(playerID: world.players[player].id, handle: "p", displayName: "P", role: .athlete), toScore: team.id,
                cards: view.round.cards, teams: view.round.teams)
        }
        #expect(may(0, teams[0]) && may(1, teams[0]) && may(2, teams[0]))
        #expect(!may(4, teams[0]) && !may(0, teams[2]) && may(4, teams[2]))
        #expect(
            ScorePermission.allows(
                Identity(playerID: UUID(), handle: "c", displayName: "C", role: .coach), toScore: teams[2].id, cards: view.round.cards,
                teams: view.round.teams))
        // A player's own id is no score of a team round.
        var clock = world.clock
        let refused = ScoreRules.decide(
            ScoreSubmission(playerID: world.players[0].id, hole: 1, strokes: .count(3)), round: view.round, course: view.course,
            playerName: view.playerName, existing: [], newID: UUID(), deviceID: world.device, recordedAt: clock.tick(wallMillis: 5),
            isCoach: { _ in false })
        guard case .failure(.invalid(let errors)) = refused else {
            Issue.record("a player's own score was taken: \(refused)")
            return
        }
        #expect(errors["playerID"]?.contains("score Ann & Ben") == true)
    }

    @Test func aWithdrawnPlayerTakesTheirTeamOut() {
        var (_, snapshot, teams) = teamRound()
        snapshot.round.withdrawn = [teams[1].playerIDs[1]]
        #expect(snapshot.scoringView.round.withdrawn == [teams[1].id])
    }

    @Test func everyMemberOfATeamTakesItsSeasonPoints() {
        let ann = UUID()
        let ben = UUID()
        let cleo = UUID()
        let dev = UUID()
        let eve = UUID()
        let (first, second, cali) = (UUID(), UUID(), UUID())
        let night = SeasonStandings.Night(
            eventID: UUID(),
            results: [
                SeasonStandings.Result(playerID: first, division: "", score: -6),
                SeasonStandings.Result(playerID: second, division: "", score: -2),
                SeasonStandings.Result(playerID: cali, division: "", score: -4),
            ],
            teams: [first: [ann, ben], second: [cleo, dev], cali: [eve]])
        let names = [ann: "Ann", ben: "Ben", cleo: "Cleo", dev: "Dev", eve: "Eve"]
        let standings = SeasonStandings.compute(nights: [night], rule: PointsRule(), names: names, divisionOrder: [])
        let points = Dictionary(uniqueKeysWithValues: (standings.divisions.first?.entries ?? []).map { ($0.displayName, $0.points) })
        // Field size: three teams finished, so first takes 3, and each player their team's.
        #expect(points == ["Ann": 3, "Ben": 3, "Eve": 2, "Cleo": 1, "Dev": 1])
    }

    @Test func aTeamIsPlacedOnGrossEvenWhereTheSeasonPlacesNet() {
        let team = UUID()
        let players = [UUID(), UUID()]
        let eventID = UUID()
        let solo = UUID()
        let nights = [
            SeasonNight(
                eventID: eventID,
                entries: [
                    SeasonNight.Entry(playerID: team, division: "", toPar: -5, dnf: false, started: true),
                    SeasonNight.Entry(playerID: solo, division: "", toPar: 1, dnf: false, started: true),
                ], rounds: [], teams: [team: players])
        ]
        let rule = PointsRule(placesBy: .net)
        let method = HandicapMethod(kind: .bestOfRecent, unhandicapped: .unplaced)
        let results = SeasonHandicaps.results(nights, rule: rule, method: method)
        #expect(results.first?.results.map(\.dnf) == [false, true], "the team is placed; the unhandicapped player is not")
        #expect(results.first?.teams[team] == players)
    }
}

/// Cards for a team round: team-mates together, never more than a card holds.
@Suite struct TeamCardTests {
    func teams(_ sizes: [Int]) -> [Team] {
        sizes.map { size in Team(id: UUID(), playerIDs: (0..<size).map { _ in UUID() }, cali: size == 1) }
    }

    @Test(arguments: [[2, 2, 2, 2, 1], [3, 3, 3], [3, 3, 2], [4, 4], [2, 2, 2], [2, 2], [3, 3, 3, 3, 1]])
    func everyTeamIsOnOneCardThatHoldsIt(sizes: [Int]) {
        let teams = teams(sizes)
        let cards = CardPlanner.plan(teams: teams, holes: Array(1...9), shotgun: true)
        for team in teams {
            #expect(cards.filter { !Set($0.playerIDs).isDisjoint(with: team.playerIDs) }.count == 1)
            #expect(cards.contains { Set(team.playerIDs).isSubset(of: $0.playerIDs) })
        }
        #expect(cards.allSatisfy { $0.playerIDs.count <= CardRules.sizeLimit }, "\(cards.map(\.playerIDs.count))")
        #expect(cards.map(\.startingHole) == Array(1...cards.count))
    }

    @Test func cardsSetByHandKeepATeamTogether() throws {
        var world = World(playerCount: 4)
        let p = world.players.map(\.id)
        world.round.teams = [Team(id: UUID(), playerIDs: [p[0], p[1]]), Team(id: UUID(), playerIDs: [p[2], p[3]])]
        let split = [
            Card(id: UUID(), name: "A", startingHole: 1, playerIDs: [p[0], p[2]]),
            Card(id: UUID(), name: "B", startingHole: 2, playerIDs: [p[1], p[3]]),
        ]
        #expect(throws: FieldErrors.self) { try CardRules.check(split, round: world.round, course: world.course) }
        let together = [Card(id: UUID(), name: "A", startingHole: 1, playerIDs: p)]
        #expect(try CardRules.check(together, round: world.round, course: world.course).count == 1)
    }
}
