import Foundation

public struct PlayerHole: Hashable, Sendable, Comparable {
    public var playerID: UUID
    public var hole: Int

    public init(playerID: UUID, hole: Int) {
        self.playerID = playerID
        self.hole = hole
    }

    public static func < (lhs: PlayerHole, rhs: PlayerHole) -> Bool {
        if lhs.playerID != rhs.playerID { return lhs.playerID.lowercasedText < rhs.playerID.lowercasedText }
        return lhs.hole < rhs.hole
    }
}

/// The state of one (player, hole): its leaves — events nothing supersedes — with the
/// winner first. Leaves that disagree are a conflict (a mismatch between scorekeepers); leaves
/// that agree are the same score confirmed by more than one scorekeeper.
public struct HoleState: Hashable, Sendable {
    public var leaves: [ScoreEvent]

    public var winner: ScoreEvent { leaves[0] }
    public var isConflict: Bool { leaves.contains { $0.result != leaves[0].result } }
    /// How many independent entries say the winner's result.
    public var confirmations: Int { leaves.filter { $0.result == leaves[0].result }.count }
}

/// Current scores of a round: the leaf of each supersession chain, never "the newest by
/// timestamp". Built from the set of events alone, so every order of arrival agrees.
public struct CurrentScores: Sendable {
    public private(set) var holes: [PlayerHole: HoleState] = [:]

    public init(events: some Sequence<ScoreEvent>) {
        var byHole: [PlayerHole: [ScoreEvent]] = [:]
        var replaced: Set<UUID> = []
        var seen: Set<UUID> = []
        for event in events where seen.insert(event.id).inserted {
            byHole[PlayerHole(playerID: event.playerID, hole: event.hole), default: []].append(event)
            replaced.formUnion(event.replaced)
        }
        for (key, group) in byHole {
            var leaves = group.filter { !replaced.contains($0.id) }
            // Only a cycle of supersessions, which no valid history forms, leaves no leaf;
            // fall back to all events so the hole still shows a deterministic score.
            if leaves.isEmpty { leaves = group }
            leaves.sort(by: ScoreEvent.winsOver)
            holes[key] = HoleState(leaves: leaves)
        }
    }

    public subscript(playerID: UUID, hole: Int) -> HoleState? {
        holes[PlayerHole(playerID: playerID, hole: hole)]
    }

    public var conflicts: [(PlayerHole, HoleState)] {
        holes.filter { $0.value.isConflict }.sorted { $0.key < $1.key }
    }
}
