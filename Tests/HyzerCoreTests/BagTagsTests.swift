import Foundation
import HyzerCore
import Testing

/// The bag-tag rule: swaps by strokes with ties to the lower incoming tag, only finishers who
/// hold a tag take part, rounds and moves apply in the order they happened.
@Suite struct BagTagsTests {
    let device = UUID()
    let players = (0..<8).map { _ in UUID() }
    let pool = TagPool(
        id: UUID(), name: "Club tags", numbers: Array(1...10), createdAt: Date(timeIntervalSince1970: 0),
        updatedAt: HLC(wallMillis: 0, counter: 0, deviceID: UUID()))

    func at(_ seconds: Int) -> Date { Date(timeIntervalSince1970: Double(seconds)) }
    func stamp(_ seconds: Int) -> HLC { HLC(wallMillis: Int64(seconds) * 1000, counter: 0, deviceID: device) }

    func assign(_ tag: Int, _ player: Int, at seconds: Int) -> TagMove {
        TagMove(id: UUID(), poolID: pool.id, kind: .assign(tag: tag, player: players[player]), recordedBy: nil, recordedAt: stamp(seconds))
    }

    /// Players 0…4 hold tags 1…5 (player i holds tag i + 1), assigned at second i.
    var assigned: [TagMove] { (0..<5).map { assign($0 + 1, $0, at: $0) } }

    func round(_ seconds: Int, _ strokes: [Int: Int], id: UUID = UUID()) -> BagTags.Round {
        BagTags.Round(
            id: id, startedAt: at(seconds),
            finishers: strokes.sorted { $0.key < $1.key }.map { BagTags.Finisher(playerID: players[$0.key], strokes: $0.value) })
    }

    func tags(_ ledger: BagTags.Ledger) -> [Int: Int] {
        Dictionary(ledger.holders.map { (players.firstIndex(of: $0.playerID) ?? -1, $0.tag) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func theFewestStrokesTakeTheLowestTagsAndATieGoesToTheLowerIncomingTag() {
        // Player 4 (tag 5) shoots best; players 1 (tag 2) and 3 (tag 4) tie.
        let ledger = BagTags.derive(pool: pool, moves: assigned, rounds: [round(100, [0: 60, 1: 55, 2: 58, 3: 55, 4: 50])])
        #expect(tags(ledger) == [4: 1, 1: 2, 3: 3, 2: 4, 0: 5])
        #expect(ledger.unassigned == Array(6...10))
        let exchange = ledger.exchange(in: ledger.history.last?.roundID ?? UUID())
        #expect(exchange?.movements.map(\.from) == [5, 2, 4, 3, 1], "in finishing order, with what each put in")
    }

    @Test func playersWithoutATagOrWhoDidNotFinishKeepWhatTheyHad() {
        // Player 6 finished first but holds no tag; player 2 (tag 3) did not finish.
        let ledger = BagTags.derive(pool: pool, moves: assigned, rounds: [round(100, [6: 40, 0: 60, 1: 50, 3: 45, 4: 70])])
        #expect(tags(ledger) == [3: 1, 1: 2, 0: 4, 4: 5, 2: 3])
        #expect(ledger.record(of: players[6]) == nil)
    }

    @Test func roundsApplyInTheOrderTheyStartedWhateverOrderTheyCome() {
        let first = round(100, [0: 60, 1: 50])
        let second = round(200, [1: 60, 2: 50])
        let inOrder = BagTags.derive(pool: pool, moves: assigned, rounds: [first, second])
        let reversed = BagTags.derive(pool: pool, moves: assigned.reversed(), rounds: [second, first])
        #expect(tags(inOrder) == tags(reversed))
        // First: 1 takes tag 1, 0 takes tag 2. Second: 2 (tag 3) beats 1 (tag 1) and takes tag 1.
        #expect(tags(inOrder) == [2: 1, 0: 2, 1: 3, 3: 4, 4: 5])
    }

    @Test func aCorrectionToAnEarlierRoundReDerivesEveryLaterSwap() {
        let firstID = UUID()
        let second = round(200, [0: 55, 1: 55])
        let before = BagTags.derive(pool: pool, moves: assigned, rounds: [round(100, [0: 60, 1: 50], id: firstID), second])
        // Round 1 corrected: player 0 now beat player 1 there.
        let after = BagTags.derive(pool: pool, moves: assigned, rounds: [round(100, [0: 49, 1: 50], id: firstID), second])
        // Before: after round 1 player 1 holds 1, player 0 holds 2; tie in round 2 goes to tag 1 (player 1).
        #expect(tags(before)[1] == 1 && tags(before)[0] == 2)
        // After: player 0 keeps 1 in round 1 and the tie in round 2 goes to player 0 again.
        #expect(tags(after)[0] == 1 && tags(after)[1] == 2)
    }

    @Test func aTradeBetweenTwoRoundsFallsBetweenThem() {
        // 0 (tag 1) and 4 (tag 5) trade at 150, between rounds at 100 and 200.
        let trade = TagMove(id: UUID(), poolID: pool.id, kind: .trade(players[0], players[4]), recordedBy: nil, recordedAt: stamp(150))
        let ledger = BagTags.derive(
            pool: pool, moves: assigned + [trade], rounds: [round(100, [2: 50, 3: 60]), round(200, [0: 50, 4: 60])])
        // Round at 100: 2 keeps 3, 3 keeps 4. Trade: 0 → 5, 4 → 1. Round at 200: 0 (tag 5) beats 4 (tag 1): 0 → 1, 4 → 5.
        #expect(tags(ledger) == [0: 1, 1: 2, 2: 3, 3: 4, 4: 5])
        #expect(ledger.history.map(\.kind) == [.assign, .assign, .assign, .assign, .assign, .round, .trade, .round])
        #expect(
            ledger.history[6].movements == [
                BagTags.Movement(playerID: players[0], from: 1, to: 5), BagTags.Movement(playerID: players[4], from: 5, to: 1),
            ])
    }

    @Test func reclaimedAndUnassignedTagsStayOutOfTheSwap() {
        let reclaim = TagMove(id: UUID(), poolID: pool.id, kind: .reclaim(tag: 1), recordedBy: nil, recordedAt: stamp(50))
        let ledger = BagTags.derive(pool: pool, moves: assigned + [reclaim], rounds: [round(100, [0: 40, 1: 60, 2: 50])])
        // Player 0 lost tag 1 before the round: 2 (tag 3) beats 1 (tag 2) and takes 2.
        #expect(tags(ledger) == [2: 2, 1: 3, 3: 4, 4: 5])
        #expect(ledger.unassigned == [1] + Array(6...10))
    }

    @Test func aPlayersRecordKeepsTheirBestTagAndRoundsAsFirst() {
        let ledger = BagTags.derive(
            pool: pool, moves: assigned, rounds: [round(100, [0: 60, 1: 50]), round(200, [1: 50, 0: 60]), round(300, [1: 60, 0: 50])])
        let record = ledger.record(of: players[1])
        #expect(record?.tag == 2)
        #expect(record?.best == 1)
        #expect(record?.roundsAsFirst == 2)
        #expect(record?.since == at(300))
        #expect(ledger.holders(before: at(150))[players[1]] == 1)
    }

    @Test func movesOfAnotherPoolOrOutsideItAreLeftOut() {
        let elsewhere = TagMove(id: UUID(), poolID: UUID(), kind: .assign(tag: 6, player: players[5]), recordedBy: nil, recordedAt: stamp(10))
        let outside = assign(42, 6, at: 11)
        let ledger = BagTags.derive(pool: pool, moves: assigned + [elsewhere, outside], rounds: [])
        #expect(tags(ledger) == [0: 1, 1: 2, 2: 3, 3: 4, 4: 5])
    }

    @Test func aPoolTakesACountOrDistinctListedNumbers() throws {
        #expect(try TagPool.validated(name: "Tags", count: 3, listed: nil).numbers == [1, 2, 3])
        #expect(try TagPool.validated(name: "Tags", count: nil, listed: [7, 2, 40]).numbers == [2, 7, 40])
        #expect(throws: FieldErrors.self) { try TagPool.validated(name: "Tags", count: nil, listed: [2, 2]) }
        #expect(throws: FieldErrors.self) { try TagPool.validated(name: "Tags", count: 0, listed: nil) }
        #expect(throws: FieldErrors.self) { try TagPool.validated(name: "", count: 5, listed: nil) }
    }

    @Test func aChallengeIsAnsweredByTheChallengedWithdrawnByItsChallengerAndLapses() throws {
        let holders = Set(players[0..<3])
        try TagChallenge.validate(challenger: players[0], challenged: [players[1], players[2]], holders: holders)
        #expect(throws: FieldErrors.self) { try TagChallenge.validate(challenger: players[0], challenged: [players[6]], holders: holders) }
        #expect(throws: FieldErrors.self) { try TagChallenge.validate(challenger: players[6], challenged: [players[1]], holders: holders) }
        #expect(throws: FieldErrors.self) { try TagChallenge.validate(challenger: players[0], challenged: [players[0]], holders: holders) }
        #expect(throws: FieldErrors.self) { try TagChallenge.validate(challenger: players[0], challenged: [], holders: holders) }

        let challenge = TagChallenge(
            id: UUID(), poolID: pool.id, challengerID: players[0], challengedIDs: [players[1]], deadline: at(1_000), createdBy: players[0],
            createdAt: at(100), updatedAt: stamp(100))
        #expect(challenge.refusal(of: .accept, by: players[1], coach: false, at: at(10)) == nil)
        #expect(challenge.refusal(of: .accept, by: players[0], coach: false, at: at(10)) != nil, "the challenger does not accept")
        #expect(challenge.refusal(of: .withdraw, by: players[0], coach: false, at: at(10)) == nil)
        #expect(challenge.refusal(of: .withdraw, by: players[1], coach: false, at: at(10)) != nil)
        #expect(challenge.refusal(of: .decline, by: players[5], coach: true, at: at(10)) == nil, "a coach answers for anyone")
        #expect(challenge.state(at: at(2_000)) == "lapsed")
        #expect(challenge.refusal(of: .accept, by: players[1], coach: false, at: at(2_000)) != nil, "a lapsed challenge is not accepted")
        var accepted = challenge
        accepted.status = .accepted
        #expect(accepted.refusal(of: .withdraw, by: players[0], coach: true, at: at(10)) != nil, "answered once")

        // In the history where it was issued, moving no tag by itself.
        let ledger = BagTags.derive(pool: pool, moves: assigned, rounds: [], challenges: [challenge])
        #expect(ledger.history.map(\.kind).last == .challenge)
        #expect(tags(ledger) == [0: 1, 1: 2, 2: 3, 3: 4, 4: 5])
    }
}
