import Foundation
import Testing

@testable import HyzerCore

/// Mulligan nights: an allowance given and bought, used hole by hole within it, derived from
/// the current scores and the sales, and shown on the card and the board.
@Suite struct MulligansTests {
    /// One given, two for sale at 1.00.
    static let rule = MulliganRule(given: 1, forSale: 2, priceCents: 100)

    func mulliganWorld() -> World {
        var world = World(playerCount: 3)
        world.round.mulligans = Self.rule
        return world
    }

    func score(_ player: UUID, hole: Int, _ strokes: Int, mulligans: Int, supersedes: UUID? = nil) -> ScoreSubmission {
        var submission = ScoreSubmission(playerID: player, hole: hole, strokes: .count(strokes), supersedes: supersedes)
        submission.mulligans = mulligans
        return submission
    }

    func sale(_ world: World, _ player: UUID, _ count: Int) -> MulliganSale {
        MulliganSale(
            id: UUID(), roundID: world.round.id, playerID: player, count: count, cents: count * 100, recordedBy: nil,
            recordedAt: HLC(wallMillis: 1, counter: 0, deviceID: world.device))
    }

    mutating func decide(_ world: inout World, _ submission: ScoreSubmission, _ events: [ScoreEvent], sales: [MulliganSale] = [])
        -> Result<ScoreDecision, ScoreRejection>
    {
        world.wall += 1000
        let names = world.names
        return ScoreRules.decide(
            submission, round: world.round, course: world.course, playerName: { names[$0] }, existing: events, newID: UUID(),
            deviceID: world.device, recordedAt: world.clock.tick(wallMillis: world.wall), mulliganSales: sales, isCoach: { _ in false })
    }

    @Test mutating func mulligansAreUsedWithinTheAllowanceGivenAndBought() throws {
        var world = mulliganWorld()
        let ann = world.players[0].id
        var events: [ScoreEvent] = []
        func record(_ result: Result<ScoreDecision, ScoreRejection>) throws {
            guard case .success(.record(let event)) = result else { throw FieldErrors("test", "not recorded: \(result)") }
            events.append(event)
        }
        // The one given is used on hole 1; a second on hole 2 is past the allowance (409).
        try record(decide(&world, score(ann, hole: 1, 3, mulligans: 1), events))
        guard case .failure(.conflict(let field, let message, _)) = decide(&world, score(ann, hole: 2, 3, mulligans: 1), events) else {
            Issue.record("a mulligan past the allowance was taken")
            return
        }
        #expect(field == "mulligans")
        #expect(message.contains("0 mulligans left (1 of 1 used)") && message.contains("a coach can sell more"), "\(message)")
        // Two bought: two more, and no third.
        let sales = [sale(world, ann, 2)]
        try record(decide(&world, score(ann, hole: 2, 4, mulligans: 2), events, sales: sales))
        guard case .failure(.conflict) = decide(&world, score(ann, hole: 3, 3, mulligans: 1), events, sales: sales) else {
            Issue.record("a fourth mulligan was taken on an allowance of three")
            return
        }
        // Correcting hole 1 to no mulligan gives one back.
        try record(decide(&world, score(ann, hole: 1, 3, mulligans: 0, supersedes: events[0].id), events, sales: sales))
        try record(decide(&world, score(ann, hole: 3, 3, mulligans: 1), events, sales: sales))
        let account = MulliganBook.account(ann, rule: Self.rule, sales: sales, scores: CurrentScores(events: events))
        #expect(account.given == 1 && account.bought == 2 && account.used == 3 && account.left == 0)
        #expect(account.holes == [2, 3])
        #expect(account.text == "3 of 3")
        // Another player's allowance is their own.
        let ben = world.players[1].id
        try record(decide(&world, score(ben, hole: 1, 2, mulligans: 1), events, sales: sales))
    }

    @Test mutating func aRoundWithoutMulligansOrABadCountIsRefused() {
        var world = World()
        let ann = world.players[0].id
        guard case .failure(.invalid(let errors)) = decide(&world, score(ann, hole: 1, 3, mulligans: 1), []) else {
            Issue.record("a mulligan was taken on a round without them")
            return
        }
        #expect(errors["mulligans"]?.contains("no mulligans") == true)
        var night = mulliganWorld()
        guard case .failure(.invalid(let range)) = decide(&night, score(ann, hole: 1, 3, mulligans: 10), []) else {
            Issue.record("ten mulligans on a hole were taken")
            return
        }
        #expect(range["mulligans"] != nil)
        // A DNF carries none: nothing to count against the allowance.
        var dnf = ScoreSubmission(playerID: night.players[0].id, hole: 1, strokes: .dnf)
        dnf.mulligans = 1
        guard case .success(.record(let event)) = decide(&night, dnf, []) else {
            Issue.record("a DNF was refused")
            return
        }
        #expect(event.mulligans == 0)
    }

    @Test func theBoardShowsUsedOfTheAllowanceAndTheScoreIsUnchanged() {
        var world = mulliganWorld()
        let ann = world.players[0].id
        var first = world.event(0, hole: 1, .count(3))
        first.mulligans = 1
        let second = world.event(1, hole: 1, .count(3))
        let sales = [sale(world, ann, 1)]
        let standings = Standings.compute(
            course: world.course, round: world.round, players: world.players, scores: CurrentScores(events: [first, second]),
            mulliganSales: sales)
        let annEntry = standings.entries.first { $0.playerID == ann }
        #expect(annEntry?.mulligans == 1 && annEntry?.mulliganAllowance == 2)
        #expect(annEntry?.strokes == 3, "a mulligan leaves the score alone")
        let board = LeaderboardView(standings: standings, roundName: "Night", courseName: "Maple Hill", status: .active, version: 1)
        #expect(board.hasMulligans)
        #expect(board.rows.first { $0.playerID == ann.lowercasedText }?.mulligans == "1 of 2")
        #expect(board.rows.first { $0.playerID == world.players[1].id.lowercasedText }?.mulligans == "0 of 1")
        // Stroke play without mulligans: no column, no cell.
        var plain = world
        plain.round.mulligans = nil
        let none = LeaderboardView(
            standings: plain.standings([first, second]), roundName: "Night", courseName: "Maple Hill", status: .active, version: 1)
        #expect(!none.hasMulligans && none.rows.allSatisfy { $0.mulligans.isEmpty })
        // The scorecard marks the hole.
        var snapshot = RoundSnapshot(round: world.round, course: world.course, players: world.players, events: [first, second], version: 1)
        snapshot.mulliganSales = sales
        let card = snapshot.board.scorecard
        #expect(snapshot.board.leaderboard.rows.first { $0.playerID == ann.lowercasedText }?.mulligans == "1 of 2")
        #expect(card.hasMulligans)
        #expect(card.rows.first?.cells.first?.mulligan == true)
        #expect(card.rows.first?.cells.first?.title == "1 mulligan used")
    }

    @Test func twoScorekeepersDisagreeingOnMulligansIsAMismatch() {
        #expect(HoleResult(strokes: .count(3), mulligans: 1) != HoleResult(strokes: .count(3)))
        #expect(HoleResult(strokes: .count(4), penalties: 1, mulligans: 1).description == "5 (1 penalty, 1 mulligan)")
    }

    @Test func aRuleIsCheckedForEveryReasonAndOnlyStrokePlayTakesOne() throws {
        do {
            _ = try MulliganRule.validated(MulliganRule(given: 10, forSale: -1, priceCents: -5))
            Issue.record("a bad rule was taken")
        } catch {
            #expect(Set(error.entries.map(\.field)) == ["mulligans.given", "mulligans.forSale", "mulligans.priceCents"])
        }
        #expect(throws: FieldErrors.self) { try MulliganRule.validated(MulliganRule(given: 0, forSale: 0)) }
        let decoded = try JSONDecoder().decode(MulliganRule.self, from: Data(#"{"given": 2}"#.utf8))
        #expect(decoded == MulliganRule(given: 2, forSale: 0, priceCents: 0))
        let world = World()
        var draft = RoundDraft(
            name: "Night", courseID: world.course.id.lowercasedText, playerIDs: world.players.map(\.id.lowercasedText), startNow: true)
        draft.mulligans = Self.rule
        let valid = try draft.validated(knownCourses: [world.course.id], knownPlayers: Set(world.players.map(\.id)), defaultName: { _, _ in "" })
        #expect(valid.mulligans == Self.rule)
        draft.format = "putting"
        draft.putting = PuttingSetup(stations: 1, distances: [.init(feet: 15, points: 1)], putts: 3)
        #expect(throws: FieldErrors.self) {
            try draft.validated(knownCourses: [world.course.id], knownPlayers: Set(world.players.map(\.id)), defaultName: { _, _ in "" })
        }
    }

    @Test func aSaleIsRefusedPastWhatIsForSaleOrBelowWhatIsUsed() {
        let ann = UUID()
        let account = MulliganAccount(playerID: ann, given: 1, bought: 1, used: 2, holes: [1, 4])
        #expect(MulliganBook.refusal(selling: 1, to: account, rule: Self.rule, name: "Ann") == nil)
        #expect(MulliganBook.refusal(selling: 2, to: account, rule: Self.rule, name: "Ann")?.contains("at most 1 more") == true)
        #expect(MulliganBook.refusal(selling: -1, to: account, rule: Self.rule, name: "Ann")?.contains("used 2") == true)
        #expect(MulliganBook.refusal(selling: -2, to: account, rule: Self.rule, name: "Ann")?.contains("no more can be given back") == true)
    }

    @Test func salesMadeApartPastTheLimitCountTheEarlierOnEveryDevice() {
        let world = mulliganWorld()
        let ann = world.players[0].id
        func made(_ count: Int, at wall: Int64, on device: UUID) -> MulliganSale {
            MulliganSale(
                id: UUID(), roundID: world.round.id, playerID: ann, count: count, cents: 0, recordedBy: nil,
                recordedAt: HLC(wallMillis: wall, counter: 0, deviceID: device))
        }
        // Two desks each sold Ann two (of two for sale) apart; later one gave back three.
        let first = made(2, at: 10, on: world.device)
        let second = made(2, at: 11, on: world.otherDevice)
        let back = made(-3, at: 12, on: world.device)
        for order in [[first, second, back], [back, second, first], [second, back, first]] {
            #expect(MulliganBook.bought(by: ann, order, forSale: Self.rule.forSale) == 2, "the later sale is left out, whatever the order")
        }
        #expect(MulliganBook.bought(by: ann, [first, made(-1, at: 13, on: world.otherDevice)], forSale: 2) == 1)
    }

    @Test func aScoreEventsMulligansTravelThroughSyncAndAbsentStaysAbsent() throws {
        var world = mulliganWorld()
        var event = world.event(0, hole: 2, .count(4))
        event.mulligans = 2
        let data = try RecordCoding.encode(ScoreEventPayload(event))
        #expect(String(decoding: data, as: UTF8.self).contains("\"mulligans\":2"))
        #expect(ScoreEventPayload(plainJSON: data)?.event(recordedAt: event.recordedAt)?.mulligans == 2)
        let plain = try RecordCoding.encode(ScoreEventPayload(world.event(0, hole: 3, .count(3))))
        #expect(!String(decoding: plain, as: UTF8.self).contains("mulligans"), "an event without mulligans keeps its old bytes")
        var bad = ScoreEventPayload(event)
        bad.mulligans = 12
        #expect(bad.event(recordedAt: event.recordedAt) == nil)
    }
}
