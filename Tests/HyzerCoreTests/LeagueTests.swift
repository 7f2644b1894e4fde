import Foundation
import Testing

@testable import HyzerCore

/// Divisions, events of several rounds, playoffs, cards and cross-checked scoring: pure rules.
@Suite struct LeagueTests {
    /// A round of `world` with Ann and Ben in MPO, Cleo and Dev in FPO.
    static func divided(_ world: inout World) {
        world.round.divisions = [world.players[0].id: "MPO", world.players[1].id: "MPO", world.players[2].id: "FPO", world.players[3].id: "FPO"]
    }

    @Test func divisionsHaveTheirOwnPositionsInTheClubsOrder() {
        var world = World()
        Self.divided(&world)
        // Cleo (FPO) leads the field at -1; Ann and Ben tie in MPO at par; Dev is +1.
        let events = [
            world.event(0, hole: 1, .count(3)), world.event(1, hole: 1, .count(3)),
            world.event(2, hole: 1, .count(2)), world.event(3, hole: 1, .count(4)),
        ]
        let standings = Standings.compute(
            course: world.course, round: world.round, players: world.players, events: events, divisionOrder: ["MPO", "FPO"])
        #expect(standings.entries.map(\.position) == ["1", "T2", "T2", "4"])
        #expect(standings.divisions.map(\.name) == ["MPO", "FPO"])
        #expect(standings.divisions[0].entries.map(\.position) == ["T1", "T1"])
        #expect(standings.divisions[1].entries.map { "\($0.displayName) \($0.position)" } == ["Cleo 1", "Dev 2"])
        // Without divisions, the same scores make one field and no division lists.
        world.round.divisions = [:]
        let undivided = world.standings(events)
        #expect(undivided.divisions.isEmpty && undivided.entries.map(\.position) == ["1", "T2", "T2", "4"])
    }

    /// Two rounds on layouts with different pars: totals add each round's to-par.
    static func twoRoundEvent(statuses: (RoundStatus, RoundStatus) = (.completed, .completed)) -> (Event, World, World) {
        var front = World()
        var back = front
        back.round.id = UUID()
        let shortCourse = Course(
            id: UUID(), name: "Short", holes: (1...9).map { Hole(number: $0, par: 3) }, createdAt: Date(), updatedAt: front.course.updatedAt)
        back.round.courseID = shortCourse.id
        front.round.status = statuses.0
        back.round.status = statuses.1
        let event = Event(id: UUID(), name: "League night", divisions: [], createdAt: Date(), updatedAt: front.course.updatedAt)
        front.round.eventID = event.id
        back.round.eventID = event.id
        return (event, front, back)
    }

    /// A one-hole layout, so a completed round is a played one (an unfinished round is a DNF).
    static func oneHole(number: Int = 1, par: Int = 3) -> Course {
        Course(
            id: UUID(), name: "One", holes: [Hole(number: number, par: par)], createdAt: Date(),
            updatedAt: HLC(wallMillis: 0, counter: 0, deviceID: UUID()))
    }

    static func on(_ course: Course, _ world: World, _ events: [ScoreEvent]) -> Standings {
        Standings.compute(course: course, round: world.round, players: world.players, events: events)
    }

    @Test func eventTotalsAddEachRoundsToParOnItsOwnLayout() {
        var (event, front, back) = Self.twoRoundEvent(statuses: (.completed, .active))
        let short = Course(
            id: back.round.courseID, name: "Short", holes: (1...9).map { Hole(number: $0, par: 3) }, createdAt: Date(),
            updatedAt: front.course.updatedAt)
        // Front: Ann 4 on the par-4 hole 5 (E), Ben 5 (+1). Back: Ann 2 on hole 1 (-1), Ben thru 0.
        let frontEvents = [front.event(0, hole: 5, .count(4)), front.event(1, hole: 5, .count(5))]
        let backEvents = [back.event(0, hole: 1, .count(2))]
        let standings = EventStandings.compute(
            event: event,
            rounds: [
                .init(round: front.round, standings: Self.on(Self.oneHole(number: 5, par: 4), front, frontEvents)),
                .init(round: back.round, standings: Standings.compute(course: short, round: back.round, players: back.players, events: backEvents)),
            ])
        let rows = standings.divisions[0].entries
        #expect(rows[0].displayName == "Ann" && rows[0].toPar == -1 && rows[0].total == 6 && rows[0].thru == 1 && rows[0].thruOf == 9)
        #expect(rows[0].rounds.map { $0?.toPar } == [0, -1])
        #expect(rows[1].displayName == "Ben" && rows[1].toPar == 1 && rows[1].position == "2")
        #expect(!standings.isFinal)
        #expect(rows.allSatisfy { $0.playoff == nil })
        event.name = "unused"
    }

    @Test func aTieForFirstAtTheEndIsAPlayoffDecidedByTheRecordedWinner() {
        var (event, front, back) = Self.twoRoundEvent()
        let frontEvents = [front.event(0, hole: 1, .count(3)), front.event(1, hole: 1, .count(2)), front.event(2, hole: 1, .count(4))]
        let backEvents = [back.event(0, hole: 1, .count(2)), back.event(1, hole: 1, .count(3)), back.event(2, hole: 1, .count(3))]
        let course = Self.oneHole()
        func compute() -> EventStandings {
            EventStandings.compute(
                event: event,
                rounds: [
                    .init(round: front.round, standings: Self.on(course, front, frontEvents)),
                    .init(round: back.round, standings: Self.on(course, back, backEvents)),
                ])
        }
        let tied = compute()
        #expect(tied.isFinal && tied.divisions[0].playoffPending)
        // Dev played neither round: a DNF, never a share of first at even par.
        #expect(tied.divisions[0].entries.last.map { "\($0.displayName) \($0.position)" } == "Dev DNF")
        #expect(tied.divisions[0].entries.prefix(2).map(\.position) == ["T1", "T1"])
        #expect(tied.divisions[0].entries.prefix(2).allSatisfy { $0.playoff == .pending })

        event.playoffs[""] = Playoff(winner: front.players[1].id, rounds: [front.round.id, back.round.id])
        let decided = compute()
        #expect(!decided.divisions[0].playoffPending)
        let rows = decided.divisions[0].entries.filter(\.started)
        #expect(rows.map { "\($0.displayName) \($0.position)" } == ["Ben 1", "Ann 2", "Cleo 3"])
        #expect(rows[0].playoff == .won && rows[1].playoff == .lost)
        // Playoff throws never count: the totals are unchanged.
        #expect(rows[0].toPar == rows[1].toPar)

        // While a round is still being played, a tie for first is only a tie.
        back.round.status = .active
        #expect(!compute().divisions[0].playoffPending)
        back.round.status = .completed

        // A result decides only the standings it was recorded for: with another round, the
        // question is open again.
        var third = back
        third.round.id = UUID()
        let thirdEvents = [third.event(0, hole: 1, .count(3)), third.event(1, hole: 1, .count(3)), third.event(2, hole: 1, .count(3))]
        let reopened = EventStandings.compute(
            event: event,
            rounds: [
                .init(round: front.round, standings: Self.on(course, front, frontEvents)),
                .init(round: back.round, standings: Self.on(course, back, backEvents)),
                .init(round: third.round, standings: Self.on(course, third, thirdEvents)),
            ])
        #expect(reopened.divisions[0].playoffPending)
        #expect(reopened.divisions[0].entries.prefix(2).allSatisfy { $0.playoff == .pending })
    }

    @Test func aCompletedRoundLeftUnfinishedIsADNFNotEvenPar() {
        let (event, front, back) = Self.twoRoundEvent()
        var f = front
        var b = back
        // Ben plays only the first hole of round two, Cleo none of it: neither counts as even par.
        let frontEvents = (0..<3).map { f.event($0, hole: 1, .count(4)) }
        let backEvents = (1...18).map { b.event(0, hole: $0, .count(3)) } + [b.event(1, hole: 1, .count(3))]
        let rows = EventStandings.compute(
            event: event,
            rounds: [
                .init(round: f.round, standings: Self.on(Self.oneHole(), f, frontEvents)),
                .init(round: b.round, standings: b.standings(backEvents)),
            ]
        ).divisions[0].entries
        #expect(rows.first?.displayName == "Ann" && rows.first?.position == "1")
        #expect(rows.filter { ["Ben", "Cleo"].contains($0.displayName) }.allSatisfy { $0.position == "DNF" })
    }

    @Test func aDNFInAnyRoundRanksAfterEveryFinisherOfTheEvent() {
        let (event, front, back) = Self.twoRoundEvent()
        var f = front
        var b = back
        // Ann leads after round one by far, then withdraws in round two.
        let frontEvents = [f.event(0, hole: 1, .count(1)), f.event(1, hole: 1, .count(5))]
        let backEvents = [b.event(0, hole: 1, .dnf), b.event(1, hole: 1, .count(5))]
        let standings = EventStandings.compute(
            event: event,
            rounds: [
                .init(round: f.round, standings: Self.on(Self.oneHole(), f, frontEvents)),
                .init(round: b.round, standings: Self.on(Self.oneHole(), b, backEvents)),
            ])
        let rows = standings.divisions[0].entries.filter { $0.started }
        #expect(rows.map { "\($0.displayName) \($0.position)" } == ["Ben 1", "Ann DNF"])
    }

    @Test func cardsAreByDivisionOfFourWithTheLeadersTogetherAndShotgunStarts() {
        #expect(CardPlanner.sizes(for: 10) == [4, 3, 3])
        #expect(CardPlanner.sizes(for: 5) == [5])
        #expect(CardPlanner.sizes(for: 9) == [5, 4])
        #expect(CardPlanner.sizes(for: 13) == [5, 4, 4])
        #expect(CardPlanner.sizes(for: 0) == [])
        let men = (0..<6).map { _ in UUID() }
        let women = (0..<3).map { _ in UUID() }
        let cards = CardPlanner.plan(groups: [men, women], holes: Array(1...18), shotgun: true)
        #expect(cards.map(\.playerIDs) == [Array(men[0..<3]), Array(men[3..<6]), women])
        #expect(cards.map(\.startingHole) == [1, 2, 3])
        #expect(cards.map(\.name) == ["Card 1", "Card 2", "Card 3"])

        // By the standings so far: leaders first, unranked players after in registration order.
        let standings = EventDivisionStandings(
            name: "MPO",
            entries: [men[4], men[1], men[2]].map { id in
                EventStandingsEntry(
                    position: "", playerID: id, displayName: "", handle: "", division: "MPO", toPar: 0, total: 0, thru: 0, thruOf: 0, rounds: [],
                    dnf: false)
            }, playoffPending: false)
        #expect(CardPlanner.order(men, by: standings) == [men[4], men[1], men[2], men[0], men[3], men[5]])

        // Tee times instead of a shotgun: everyone from the first hole, ten minutes apart.
        let tee = Date(timeIntervalSince1970: 1_800_000_000)
        let timed = CardPlanner.plan(groups: [men], holes: Array(1...18), shotgun: false, firstTee: tee)
        #expect(timed.map(\.startingHole) == [1, 1])
        #expect(timed.map(\.teeTime) == [tee, tee.addingTimeInterval(600)])
    }

    @Test func cardsByNumberKeepTheRoundsOrderAndNeedAStartingHole() throws {
        let (a, b, c) = (UUID(), UUID(), UUID())
        let cards = try CardRules.cards(numbers: [a: 2, b: 1, c: 2], starts: [1: 4, 2: 1], order: [a, b, c])
        #expect(cards.map(\.name) == ["Card 1", "Card 2"])
        #expect(cards.map(\.playerIDs) == [[b], [a, c]])
        #expect(cards.map(\.startingHole) == [4, 1])
        #expect(throws: FieldErrors("cards", "Card 2 needs a starting hole.")) { try CardRules.cards(numbers: [a: 2], starts: [:], order: [a]) }
    }

    @Test func aCardPlaysFromItsStartingHoleAndWraps() {
        let card = Card(id: UUID(), name: "Card 3", startingHole: 16, playerIDs: [])
        #expect(card.holeOrder(Array(1...18)) == [16, 17, 18] + Array(1...15))
        #expect(card.hole(after: 18, of: Array(1...18)) == 1)
        #expect(card.hole(after: 15, of: Array(1...18)) == nil)
    }

    @Test func twoScorekeepersWhoDifferAreOneMismatchWithWhoEnteredWhat() {
        var world = World()
        let (keeperA, keeperB) = (world.players[0].id, world.players[1].id)
        var onA = world.event(2, hole: 4, .count(3))
        onA.reportedBy = keeperA
        var onB = world.event(2, hole: 4, .count(4), device: world.otherDevice)
        onB.reportedBy = keeperB
        var agreeA = world.event(2, hole: 5, .count(4))
        agreeA.reportedBy = keeperA
        var agreeB = world.event(2, hole: 5, .count(4), device: world.otherDevice)
        agreeB.reportedBy = keeperB
        let scores = CurrentScores(events: [onA, onB, agreeA, agreeB])
        #expect(scores.conflicts.map(\.0.hole) == [4])
        #expect(Set(scores[world.players[2].id, 4]?.leaves.compactMap(\.reportedBy) ?? []) == [keeperA, keeperB])
        #expect(scores[world.players[2].id, 5]?.confirmations == 2)
        // A penalty is part of the result: the same throws with a penalty is a mismatch.
        var penalised = agreeB
        penalised.penalties = 1
        #expect(CurrentScores(events: [agreeA, penalised]).conflicts.count == 1)
    }

    @Test func aCrossCheckedEntryCorrectsOnlyTheKeepersOwnAndASignedCardNeedsACoach() {
        var world = World()
        let keeperA = world.players[0].id
        let keeperB = world.players[1].id
        var existing: [ScoreEvent] = []
        func enter(_ strokes: Int, by keeper: UUID, signed: Set<UUID> = [], coach: Bool = false) -> Result<ScoreDecision, ScoreRejection> {
            world.wall += 1000
            let submission = ScoreSubmission(playerID: world.players[2].id, hole: 3, strokes: .count(strokes), reportedBy: keeper, crossCheck: true)
            let result = ScoreRules.decide(
                submission, round: world.round, course: world.course, playerName: { world.names[$0] }, existing: existing,
                newID: UUID(), deviceID: world.device, recordedAt: world.clock.tick(wallMillis: world.wall),
                signed: signed, byCoach: coach, isCoach: { _ in false })
            if case .success(.record(let event)) = result { existing.append(event) }
            return result
        }
        guard case .success(.record(let first)) = enter(3, by: keeperA) else {
            Issue.record("A's entry refused")
            return
        }
        guard case .success(.record(let second)) = enter(4, by: keeperB) else {
            Issue.record("B's independent entry refused")
            return
        }
        #expect(second.supersedes == nil)
        #expect(CurrentScores(events: existing).conflicts.count == 1)
        guard case .success(.record(let fix)) = enter(4, by: keeperA) else {
            Issue.record("A's correction refused")
            return
        }
        #expect(fix.supersedes == first.id && fix.resolves.isEmpty)
        #expect(CurrentScores(events: existing).conflicts.isEmpty)

        #expect(enter(5, by: keeperA, signed: [world.players[2].id]) == .failure(.signed("Cleo")))
        guard case .success(.record) = enter(5, by: keeperA, signed: [world.players[2].id], coach: true) else {
            Issue.record("coach refused")
            return
        }
    }

    @Test func aCompletedRoundWithHolesLeftIsADNFForThatPlayer() {
        var world = World()
        let events = (1...18).map { world.event(0, hole: $0, .count(3)) } + [world.event(1, hole: 1, .count(2))]
        #expect(world.standings(events).entries.prefix(2).map(\.position) == ["1", "2"])
        world.round.status = .completed
        let final = world.standings(events).entries
        #expect(final.first { $0.displayName == "Ann" }?.position == "1")
        #expect(final.filter { $0.displayName != "Ann" }.allSatisfy { $0.position == "DNF" })
    }

    @Test func anEventWithoutDivisionsTakesNone() {
        let world = World()
        let event = Event(id: UUID(), name: "Doubles", divisions: [], createdAt: Date(), updatedAt: world.course.updatedAt)
        let draft = RoundDraft(
            courseID: world.course.id.lowercasedText, playerIDs: [world.players[0].id.lowercasedText], eventID: event.id.lowercasedText,
            divisions: [world.players[0].id.lowercasedText: "MPO"])
        #expect(throws: FieldErrors.self) {
            try draft.validated(knownCourses: [world.course.id], knownPlayers: Set(world.players.map(\.id)), events: [event.id: event]) { _, _ in "R"
            }
        }
    }

    @Test func eventDraftsNameDivisionsOnceEach() throws {
        let valid = try EventDraft(name: " Tuesday league ", divisions: EventDraft.divisionList("MPO, FPO\nMA1")).validated()
        #expect(valid.divisions == ["MPO", "FPO", "MA1"])
        #expect(throws: FieldErrors.self) { try EventDraft(name: "x", divisions: ["MPO", "mpo"]).validated() }
        #expect(throws: FieldErrors.self) { try EventDraft(name: "x", divisions: ["<script>"]).validated() }
        #expect(throws: FieldErrors.self) { try EventDraft(name: "", divisions: []).validated() }
    }
}
