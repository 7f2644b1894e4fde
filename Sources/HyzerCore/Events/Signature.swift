import Foundation

/// A player's confirmation of their own scorecard at the end of a round. Append-only: once a
/// player has signed, their scores in the round change only through a coach, and each such
/// change stays visible as made after signing.
public struct Signature: Identifiable, Hashable, Sendable {
    public var id: UUID
    public var roundID: UUID
    public var playerID: UUID
    public var signedBy: UUID?
    public var signedAt: HLC

    public init(id: UUID, roundID: UUID, playerID: UUID, signedBy: UUID?, signedAt: HLC) {
        self.id = id
        self.roundID = roundID
        self.playerID = playerID
        self.signedBy = signedBy
        self.signedAt = signedAt
    }
}

extension Array where Element == Signature {
    /// The first signature of each player: when their card was locked.
    public var firstByPlayer: [UUID: Signature] {
        var result: [UUID: Signature] = [:]
        for signature in self where result[signature.playerID].map({ signature.signedAt < $0.signedAt }) ?? true {
            result[signature.playerID] = signature
        }
        return result
    }
}
