import Foundation
import Testing

@testable import HyzerCore

/// Only a coach's entry decides a hole: two card-mates entering and correcting each other's
/// holes in every order never lock a hole against the other, and an athlete's differing
/// entry is always kept as a mismatch for the card (or a coach) to resolve.
@Suite struct CardMateDecisionTests {
    static let interleavings = ProcessInfo.processInfo.environment["HYZER_PROPERTY_SEEDS"].flatMap(Int.init).map { $0 * 4 } ?? 200

    /// One scorer's entry as the card page and the phone's outbox make it
    /// (`DomainStore.cardEntry`): a coach corrects the hole's current score; an athlete's entry
    /// is a cross-check that corrects only their own. Nil when it would change nothing.
    static func entry(_ strokes: Int, player: UUID, hole: Int, by reporter: UUID, coach: Bool, scores: CurrentScores) -> ScoreSubmission? {
        var submission = ScoreSubmission(playerID: player, hole: hole, strokes: .count(strokes), reportedBy: reporter, crossCheck: !coach)
        let state = scores[player, hole]
        let result = HoleResult(strokes: .count(strokes))
        if coach {
            if let state, state.winner.result == result, !state.isConflict { return nil }
            submission.supersedes = state?.winner.id
            return submission
        }
        return state?.leaves.first { $0.reportedBy == reporter }?.result == result ? nil : submission
    }

    @Test func onlyACoachsEntryDecidesAHole() {
        for seed in 0..<Self.interleavings {
            var generator = SeededGenerator(state: UInt64(seed) &* 7919 &+ 1)
            var world = World(playerCount: 2)
            let athletes = world.players.map(\.id)
            let coach = UUID()
            let scorers = athletes + [coach]
            var events: [ScoreEvent] = []
            var refusals = 0
            for step in 0..<24 {
                let reporter = scorers[Int.random(in: 0..<(step % 6 == 5 ? 3 : 2), using: &generator)]
                let player = athletes[Int.random(in: 0..<2, using: &generator)]
                let hole = Int.random(in: 1...2, using: &generator)
                let strokes = Int.random(in: 2...5, using: &generator)
                let scores = CurrentScores(events: events)
                let byCoach = reporter == coach
                guard let submission = Self.entry(strokes, player: player, hole: hole, by: reporter, coach: byCoach, scores: scores) else { continue }
                world.wall += 1000
                let decision = ScoreRules.decide(
                    submission, round: world.round, course: world.course, playerName: { world.names[$0] }, existing: events, newID: UUID(),
                    deviceID: world.device, recordedAt: world.clock.tick(wallMillis: world.wall), byCoach: byCoach, scores: scores,
                    isCoach: { $0 == coach })
                let before = scores[player, hole]
                switch decision {
                case .success(.record(let event)):
                    events.append(event)
                    let after = CurrentScores(events: events)[player, hole]
                    // While a coach's correction is a leaf, only its result stands beside it.
                    let decided = after?.leaves.filter { $0.reportedBy == coach && $0.supersedes != nil } ?? []
                    #expect(decided.allSatisfy { decision in after?.leaves.allSatisfy { $0.result == decision.result } == true }, "seed \(seed)")
                    if byCoach {
                        #expect(after?.isConflict == false && after?.winner.id == event.id, "seed \(seed): a coach's entry settles the hole")
                    } else {
                        // The athlete's view stands beside the others': agreed, or a mismatch to resolve.
                        #expect(after?.leaves.contains { $0.id == event.id } == true, "seed \(seed): an athlete's entry is kept")
                    }
                case .failure(.conflict(field: "hole", _, _)):
                    refusals += 1
                    #expect(!byCoach, "seed \(seed): a coach is never refused")
                    #expect(
                        before?.leaves.contains { $0.reportedBy == coach && $0.supersedes != nil } == true,
                        "seed \(seed): refused only where a coach corrected the hole")
                default:
                    Issue.record("seed \(seed) step \(step): \(reporter == coach ? "coach" : "athlete") refused: \(decision)")
                }
            }
            _ = refusals
        }
    }

    /// The two attacks of the second attacker's pass, spelled out: a card-mate enters and
    /// corrects the victim's hole, a cheater enters and corrects their own.
    @Test func aCardMatesOwnCorrectionLocksNothing() {
        var world = World(playerCount: 2)
        let (cheater, victim) = (world.players[0].id, world.players[1].id)
        var events: [ScoreEvent] = []
        func enter(_ strokes: Int, for player: UUID, by reporter: UUID, coachIDs: Set<UUID> = []) -> Result<ScoreDecision, ScoreRejection> {
            let scores = CurrentScores(events: events)
            let byCoach = coachIDs.contains(reporter)
            guard let submission = Self.entry(strokes, player: player, hole: 1, by: reporter, coach: byCoach, scores: scores) else {
                return .failure(.invalid(FieldErrors("strokes", "unchanged")))
            }
            world.wall += 1000
            let decision = ScoreRules.decide(
                submission, round: world.round, course: world.course, playerName: { world.names[$0] }, existing: events, newID: UUID(),
                deviceID: world.device, recordedAt: world.clock.tick(wallMillis: world.wall), byCoach: byCoach, scores: scores,
                isCoach: { coachIDs.contains($0) })
            if case .success(.record(let event)) = decision { events.append(event) }
            return decision
        }
        // (a) The victim's hole 1 entered as 8, then corrected to 9 by the card-mate.
        #expect(enter(8, for: victim, by: cheater).isRecorded)
        #expect(enter(9, for: victim, by: cheater).isRecorded)
        #expect(enter(3, for: victim, by: victim).isRecorded, "the victim's own 3 is a mismatch, not refused")
        #expect(CurrentScores(events: events)[victim, 1]?.isConflict == true)
        // (b) The cheater's own hole 1 entered and corrected: the honest entry still counts.
        #expect(enter(2, for: cheater, by: cheater).isRecorded)
        #expect(enter(1, for: cheater, by: cheater).isRecorded)
        #expect(enter(4, for: cheater, by: victim).isRecorded)
        #expect(CurrentScores(events: events)[cheater, 1]?.isConflict == true)
        // A coach's correction does decide: the card-mate's differing entry is then refused.
        let coach = UUID()
        #expect(enter(4, for: cheater, by: coach, coachIDs: [coach]).isRecorded)
        guard case .failure(.conflict(field: "hole", let message, _)) = enter(1, for: cheater, by: cheater, coachIDs: [coach]) else {
            Issue.record("a coach's decision was contested")
            return
        }
        #expect(message.contains("A coach decided hole 1"))
        // Agreeing with the decision first, then changing one's entry, reopens nothing.
        #expect(enter(4, for: cheater, by: cheater, coachIDs: [coach]).isRecorded)
        #expect(!enter(1, for: cheater, by: cheater, coachIDs: [coach]).isRecorded)
        #expect(CurrentScores(events: events)[cheater, 1]?.isConflict == false)
    }

    @Test func aWithdrawnPlayerNoLongerKeepsScoreForTheirCard() {
        var world = World(playerCount: 2)
        let (gone, stays) = (world.players[0].id, world.players[1].id)
        world.round.withdrawn = [gone]
        let submission = ScoreSubmission(playerID: stays, hole: 1, strokes: .count(3), reportedBy: gone, crossCheck: true)
        let decision = ScoreRules.decide(
            submission, round: world.round, course: world.course, playerName: { world.names[$0] }, existing: [], newID: UUID(),
            deviceID: world.device, recordedAt: world.clock.tick(wallMillis: world.wall), byCoach: false, isCoach: { _ in false })
        guard case .failure(.conflict(field: "reportedBy", let message, _)) = decision else {
            Issue.record("a withdrawn player's entry for a card-mate was \(decision)")
            return
        }
        #expect(message.contains("withdrawn"))
        // Their card-mate still scores, and so does a coach for anyone.
        var own = submission
        own.reportedBy = stays
        #expect(
            ScoreRules.decide(
                own, round: world.round, course: world.course, playerName: { world.names[$0] }, existing: [], newID: UUID(), deviceID: world.device,
                recordedAt: world.clock.tick(wallMillis: world.wall + 1), byCoach: false, isCoach: { _ in false }
            ).isRecorded)
    }
}

extension Result where Success == ScoreDecision, Failure == ScoreRejection {
    var isRecorded: Bool {
        if case .success(.record) = self { return true }
        return false
    }
}
