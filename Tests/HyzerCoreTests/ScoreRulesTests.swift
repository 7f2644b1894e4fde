import Foundation
import Testing

@testable import HyzerCore

@Suite struct ScoreRulesTests {
    @Test func recordsAValidScore() throws {
        var world = World()
        let decision = try world.decide(ScoreSubmission(playerID: world.players[0].id, hole: 4, strokes: .count(3)), existing: []).get()
        guard case .record(let event) = decision else {
            Issue.record("expected a new event")
            return
        }
        #expect(event.hole == 4)
        #expect(event.deviceID == world.device)
        #expect(event.roundID == world.round.id)
    }

    @Test func rejectsAHoleOutsideTheCourseAndAStranger() {
        var world = World()
        let result = world.decide(ScoreSubmission(playerID: UUID(), hole: 19, strokes: .count(3)), existing: [])
        guard case .failure(.invalid(let errors)) = result else {
            Issue.record("expected invalid")
            return
        }
        #expect(errors["hole"] == "Hole 19 is not on Maple Hill (holes 1–18).")
        #expect(errors["playerID"] == "That player is not in this round.")
    }

    @Test(arguments: [RoundStatus.scheduled, .completed])
    func rejectsScoresOutsideAnActiveRound(status: RoundStatus) {
        var world = World()
        world.round.status = status
        let result = world.decide(ScoreSubmission(playerID: world.players[0].id, hole: 1, strokes: .count(3)), existing: [])
        guard case .failure(.conflict(let field, _, _)) = result else {
            Issue.record("expected conflict")
            return
        }
        #expect(field == "round")
    }

    @Test func rescoringAScoredHoleRequiresACorrection() {
        var world = World()
        let first = world.event(0, hole: 2, .count(3))
        let result = world.decide(ScoreSubmission(playerID: world.players[0].id, hole: 2, strokes: .count(4)), existing: [first])
        guard case .failure(.conflict(let field, let message, _)) = result else {
            Issue.record("expected conflict")
            return
        }
        #expect(field == "hole")
        #expect(message.contains("already has a score for Ann (3)"))
    }

    @Test func aCorrectionMustKeepPlayerAndHole() {
        var world = World()
        let first = world.event(0, hole: 2, .count(3))
        let otherHole = world.decide(
            ScoreSubmission(playerID: world.players[0].id, hole: 3, strokes: .count(4), supersedes: first.id), existing: [first])
        let otherPlayer = world.decide(
            ScoreSubmission(playerID: world.players[1].id, hole: 2, strokes: .count(4), supersedes: first.id), existing: [first])
        let unknown = world.decide(ScoreSubmission(playerID: world.players[0].id, hole: 2, strokes: .count(4), supersedes: UUID()), existing: [first])
        for result in [otherHole, otherPlayer] {
            guard case .failure(.invalid(let errors)) = result else {
                Issue.record("expected invalid")
                continue
            }
            #expect(errors["supersedes"] == "A correction must be for the same player and hole as the score it corrects.")
        }
        guard case .failure(.invalid(let errors)) = unknown else {
            Issue.record("expected invalid")
            return
        }
        #expect(errors["supersedes"] == "The score being corrected does not exist in this round.")
    }

    @Test func correctingAnAlreadyCorrectedScoreIsRefused() {
        var world = World()
        let first = world.event(0, hole: 2, .count(3))
        let second = world.event(0, hole: 2, .count(4), supersedes: first.id)
        let stale = world.decide(
            ScoreSubmission(playerID: world.players[0].id, hole: 2, strokes: .count(5), supersedes: first.id), existing: [first, second])
        guard case .failure(.conflict(let field, let message, _)) = stale else {
            Issue.record("expected conflict")
            return
        }
        #expect(field == "supersedes")
        #expect(message.contains("now 4"))
    }

    @Test func correctingAConflictResolvesEveryLeaf() throws {
        var world = World()
        let original = world.event(0, hole: 3, .count(4))
        let onA = world.event(0, hole: 3, .count(3), supersedes: original.id)
        let onB = world.event(0, hole: 3, .count(5), supersedes: original.id, device: world.otherDevice)
        let decision = try world.decide(
            ScoreSubmission(playerID: world.players[0].id, hole: 3, strokes: .count(3), supersedes: onB.id), existing: [original, onA, onB]
        ).get()
        guard case .record(let event) = decision else {
            Issue.record("expected a new event")
            return
        }
        #expect(event.resolves == [onA.id])
        #expect(world.standings([original, onA, onB, event]).conflicts.isEmpty)
    }

    @Test func aRetriedSubmissionIsADuplicateAndADifferentOneWithTheSameIDIsRefused() {
        var world = World()
        let id = UUID()
        let submission = ScoreSubmission(id: id, playerID: world.players[0].id, hole: 1, strokes: .count(3))
        guard case .success(.record(let event)) = world.decide(submission, existing: []) else {
            Issue.record("expected record")
            return
        }
        guard case .success(.duplicate(let again)) = world.decide(submission, existing: [event]) else {
            Issue.record("expected duplicate")
            return
        }
        #expect(again == event)
        var changed = submission
        changed.strokes = .count(4)
        guard case .failure(.conflict(let field, _, _)) = world.decide(changed, existing: [event]) else {
            Issue.record("expected conflict")
            return
        }
        #expect(field == "id")
    }
}
