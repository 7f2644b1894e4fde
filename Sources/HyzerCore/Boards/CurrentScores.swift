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
/// timestamp". Built from the set of events alone, so every order of arrival agrees — and
/// adding events to it gives exactly what building it from all of them would.
public struct CurrentScores: Sendable {
    public private(set) var holes: [PlayerHole: HoleState] = [:]
    private var groups: [PlayerHole: [ScoreEvent]] = [:]
    private var groupOf: [UUID: PlayerHole] = [:]
    private var replaced: Set<UUID> = []

    public init(events: some Sequence<ScoreEvent>) {
        add(events)
    }

    /// Adds events (ones already here are ignored) and recomputes only the holes they touch.
    public mutating func add(_ events: some Sequence<ScoreEvent>) {
        var touched: Set<PlayerHole> = []
        for event in events where groupOf[event.id] == nil {
            let key = PlayerHole(playerID: event.playerID, hole: event.hole)
            groups[key, default: []].append(event)
            groupOf[event.id] = key
            touched.insert(key)
            for id in event.replaced {
                replaced.insert(id)
                // A replaced event already here may sit in another hole (a history no local
                // rule forms, but sync may deliver): its hole changes too.
                if let other = groupOf[id] { touched.insert(other) }
            }
        }
        for key in touched {
            guard let group = groups[key] else { continue }
            var leaves = group.filter { !replaced.contains($0.id) }
            // Only a cycle of supersessions, which no valid history forms, leaves no leaf;
            // fall back to all events so the hole still shows a deterministic score.
            if leaves.isEmpty { leaves = group }
            leaves.sort(by: ScoreEvent.winsOver)
            holes[key] = HoleState(leaves: leaves)
        }
    }

    public var eventCount: Int { groupOf.count }

    /// The event with this id, found through its hole (no scan of every event).
    public func event(_ id: UUID) -> ScoreEvent? {
        groupOf[id].flatMap { groups[$0] }?.first { $0.id == id }
    }

    public subscript(playerID: UUID, hole: Int) -> HoleState? {
        holes[PlayerHole(playerID: playerID, hole: hole)]
    }

    public var conflicts: [(PlayerHole, HoleState)] {
        holes.filter { $0.value.isConflict }.sorted { $0.key < $1.key }
    }
}
