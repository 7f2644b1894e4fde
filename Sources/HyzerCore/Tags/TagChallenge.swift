import Foundation

/// A holder challenging one or more other holders of a pool to a tag round of their own.
/// Accepted, it becomes that round (a tag round of the pool, exchanged like any other); it
/// can be declined, withdrawn, or lapse once its deadline passes unanswered. Synced, last
/// writer wins; every answer is a new version of the one record.
public struct TagChallenge: Identifiable, Hashable, Sendable {
    public enum Status: String, Codable, Sendable {
        case open, accepted, declined, withdrawn
    }

    public enum Answer: String, Sendable {
        case accept, decline, withdraw
    }

    public var id: UUID
    public var poolID: UUID
    public var challengerID: UUID
    public var challengedIDs: [UUID]
    public var deadline: Date
    public var status: Status
    /// The tag round an accepted challenge became.
    public var roundID: UUID?
    public var createdBy: UUID?
    public var createdAt: Date
    public var updatedAt: HLC

    public static let maxChallenged = 4
    public static let deadlineRange = 1...60

    public init(
        id: UUID, poolID: UUID, challengerID: UUID, challengedIDs: [UUID], deadline: Date, status: Status = .open, roundID: UUID? = nil,
        createdBy: UUID?, createdAt: Date, updatedAt: HLC
    ) {
        self.id = id
        self.poolID = poolID
        self.challengerID = challengerID
        self.challengedIDs = challengedIDs
        self.deadline = deadline
        self.status = status
        self.roundID = roundID
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var players: [UUID] { [challengerID] + challengedIDs }

    /// "lapsed" for an open challenge past its deadline; else its status.
    public func state(at moment: Date) -> String {
        status == .open && moment > deadline ? "lapsed" : status.rawValue
    }

    /// Checks a new challenge against the holders: everyone in it holds a tag of the pool,
    /// each once, one to `maxChallenged` challenged.
    public static func validate(challenger: UUID, challenged: [UUID], holders: Set<UUID>) throws(FieldErrors) {
        if !holders.contains(challenger) { throw FieldErrors("challengerID", "The challenger must hold a tag of this pool.") }
        guard (1...maxChallenged).contains(challenged.count) else {
            throw FieldErrors("challengedIDs", "Challenge between 1 and \(maxChallenged) holders.")
        }
        guard Set(challenged).count == challenged.count, !challenged.contains(challenger) else {
            throw FieldErrors("challengedIDs", "Name each challenged player once, and not the challenger.")
        }
        guard challenged.allSatisfy(holders.contains) else {
            throw FieldErrors("challengedIDs", "Only holders of this pool's tags can be challenged.")
        }
    }

    /// Why `answer` by `actor` (a coach, or a player of the challenge) is refused now, if it is:
    /// only an open challenge before its deadline is answered; the challenged accept or
    /// decline, the challenger withdraws, and a coach may do any of it.
    public func refusal(of answer: Answer, by actor: UUID?, coach: Bool, at moment: Date) -> String? {
        guard status == .open else { return "This challenge is already \(status.rawValue)." }
        if answer != .withdraw, moment > deadline { return "This challenge lapsed: its deadline has passed." }
        if coach { return nil }
        switch answer {
        case .accept, .decline:
            return actor.map(challengedIDs.contains) == true ? nil : "Only a challenged player (or a coach) answers a challenge."
        case .withdraw:
            return actor == challengerID ? nil : "Only the challenger (or a coach) withdraws a challenge."
        }
    }
}

public struct TagChallengePayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var poolID: UUID
    public var challengerID: UUID
    public var challengedIDs: [UUID]
    public var deadline: Date
    public var status: TagChallenge.Status
    public var roundID: UUID?
    public var createdBy: UUID?
    public var createdAt: Date

    public init(_ challenge: TagChallenge) {
        id = challenge.id
        poolID = challenge.poolID
        challengerID = challenge.challengerID
        challengedIDs = challenge.challengedIDs
        deadline = challenge.deadline
        status = challenge.status
        roundID = challenge.roundID
        createdBy = challenge.createdBy
        createdAt = challenge.createdAt
    }

    public func challenge(updatedAt: HLC) -> TagChallenge? {
        guard !challengedIDs.isEmpty, !challengedIDs.contains(challengerID), (status == .accepted) == (roundID != nil) else { return nil }
        return TagChallenge(
            id: id, poolID: poolID, challengerID: challengerID, challengedIDs: challengedIDs, deadline: deadline, status: status,
            roundID: roundID, createdBy: createdBy, createdAt: createdAt, updatedAt: updatedAt)
    }
}

extension TagChallenge: SyncedRecord {
    public static let noun = "Tag challenge"
    public static let recordType = RecordType.tagChallenge
    public static let merge = MergeRule.lastWriterWins
    public static let applyOrder = 13
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { updatedAt }
    public var recordPayload: TagChallengePayload { TagChallengePayload(self) }
    public static func value(_ payload: TagChallengePayload, version: HLC) -> TagChallenge? { payload.challenge(updatedAt: version) }
}
