import Foundation
import GRDB
import HyzerCore

// Bag-tag challenges: issued by a holder (or a coach for them), answered by the challenged,
// withdrawn by the challenger; accepted, a tag round of its players in the same transaction.
extension DomainStore {
    /// A challenge from `challenger` to the `challenged` holders, answerable for `days` days.
    /// A player challenges for themselves; a coach for anyone.
    public func issueTagChallenge(
        in poolID: UUID, challenger: UUID, challenged: [UUID], days: Int, by actor: UUID?, coach: Bool
    ) async throws -> TagChallenge {
        guard TagChallenge.deadlineRange.contains(days) else {
            throw LeagueRejection.invalid(
                FieldErrors(
                    "days",
                    "A challenge is answered within \(TagChallenge.deadlineRange.lowerBound) to \(TagChallenge.deadlineRange.upperBound) days."))
        }
        let moment = now()
        let stamp = tick()
        return try await write(queueing: { [(.tagChallenge, $0.id.text, $0.updatedAt)] }) { db in
            let ledger = try self.tagLedger(poolID, playerCount: self.playerChanges.value, keeping: false, db)
            let from = try Self.canonicalID(challenger, db)
            let me = try actor.map { try Self.canonicalID($0, db) }
            guard coach || from == me else {
                throw LeagueRejection.forbidden("You challenge for yourself; a coach may challenge for anyone.")
            }
            let to = try challenged.map { try Self.canonicalID($0, db) }
            try TagChallenge.validate(challenger: from, challenged: to, holders: Set(ledger.holders.map(\.playerID)))
            let challenge = TagChallenge(
                id: UUID(), poolID: poolID, challengerID: from, challengedIDs: to, deadline: moment.addingTimeInterval(Double(days) * 86_400),
                createdBy: actor, createdAt: moment, updatedAt: stamp)
            try TagChallengeRecord(challenge).insert(db)
            try Self.audit(.tagChallenge, challenge.id, actor: actor, at: moment, "challenge in \(ledger.pool.name)", db)
            return challenge
        }
    }

    /// Accepts (a tag round of the challenge's players on `courseID`, started now), declines
    /// or withdraws a challenge, as `TagChallenge.refusal` allows.
    public func answerTagChallenge(
        _ id: UUID, _ answer: TagChallenge.Answer, in poolID: UUID, courseID: UUID?, by actor: UUID?, coach: Bool
    ) async throws
        -> TagChallenge
    {
        let moment = now()
        let stamp = tick()
        let roundStamp = tick()
        return try await write(queueing: { challenge in
            [(.tagChallenge, challenge.id.text, challenge.updatedAt)] + (challenge.roundID.map { [(.round, $0.text, roundStamp)] } ?? [])
        }) { db in
            guard var challenge = try TagChallengeRecord.fetchOne(db, key: id.text)?.domain(), challenge.poolID == poolID else {
                throw StoreError.notFound("Challenge")
            }
            let canonical = try actor.map { try Self.canonicalID($0, db) }
            if let refusal = challenge.refusal(of: answer, by: canonical, coach: coach, at: moment) {
                throw refusal.hasPrefix("Only") ? LeagueRejection.forbidden(refusal) : LeagueRejection.conflict(refusal)
            }
            switch answer {
            case .accept:
                guard let courseID, try CourseRecord.fetchOne(db, key: courseID.text) != nil else {
                    throw LeagueRejection.invalid(FieldErrors("courseID", "Choose the course the challenge is played on."))
                }
                let names = try String.fetchAll(
                    db, sql: "SELECT displayName FROM players WHERE id IN (\(challenge.players.map { _ in "?" }.joined(separator: ", ")))",
                    arguments: StatementArguments(challenge.players.map(\.text)))
                var round = Round(
                    id: UUID(), name: "Challenge: " + names.joined(separator: " v "), courseID: courseID, playerIDs: challenge.players,
                    status: .active, startedAt: moment, createdBy: actor, createdAt: moment, updatedAt: roundStamp)
                round.name = String(round.name.prefix(80))
                round.tagsID = challenge.poolID
                try RoundRecord(round, version: 1).insert(db)
                try RoundRecord.writePlayers(of: round, db)
                challenge.status = .accepted
                challenge.roundID = round.id
            case .decline: challenge.status = .declined
            case .withdraw: challenge.status = .withdrawn
            }
            challenge.updatedAt = stamp
            try TagChallengeRecord(challenge).update(db)
            try Self.audit(.tagChallenge, challenge.id, actor: actor, at: moment, "challenge \(challenge.status.rawValue)", db)
            return challenge
        }
    }
}
