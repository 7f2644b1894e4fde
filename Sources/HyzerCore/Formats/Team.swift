import Foundation

/// Players who play a team round as one: the boards rank the team, its score is the team's.
/// A cali plays alone (a team of one) under the round's `CaliRule`.
public struct Team: Codable, Hashable, Sendable, Identifiable {
    public var id: UUID
    public var playerIDs: [UUID]
    public var cali: Bool

    public static let sizeRange = 1...4

    public init(id: UUID, playerIDs: [UUID], cali: Bool = false) {
        self.id = id
        self.playerIDs = playerIDs
        self.cali = cali
    }

    /// "Ann & Bob", "Ann, Bob & Cy", "Dee (cali)".
    public func name(_ names: [UUID: String]) -> String {
        let members = playerIDs.map { names[$0] ?? "Unknown player" }
        if cali { return "\(members.first ?? "Unknown player") (cali)" }
        guard let last = members.last, members.count > 1 else { return members.first ?? "Unknown team" }
        return members.dropLast().joined(separator: ", ") + " & " + last
    }

    /// Checks teams set by hand against the round's players: every player in exactly one team,
    /// teams of 2 to 4, a cali alone.
    public static func validated(_ teams: [Team], players: [UUID], into errors: inout FieldErrors) -> [Team] {
        var seen = Set<UUID>()
        for team in teams {
            if !sizeRange.contains(team.playerIDs.count) {
                errors.add("teams", "A team has \(sizeRange.lowerBound) to \(sizeRange.upperBound) players.")
            } else if team.playerIDs.count == 1 && !team.cali {
                errors.add("teams", "A player alone plays as a cali: mark them \"cali\".")
            } else if team.cali && team.playerIDs.count != 1 {
                errors.add("teams", "A cali plays alone: a team of one.")
            }
            for player in team.playerIDs where !seen.insert(player).inserted {
                errors.add("teams", "A player can be in only one team.")
            }
        }
        if teams.count < 2 { errors.add("teams", "A team round needs at least two teams.") }
        if errors["teams"] == nil, Set(players) != seen {
            errors.add("teams", "Every player of the round must be in a team.")
        }
        return teams
    }
}

extension Round {
    /// The team `playerID` plays in, on a team round.
    public func team(of playerID: UUID) -> Team? {
        teams.first { $0.playerIDs.contains(playerID) }
    }

    /// Who a player scores and signs as: their team on a team round, else themselves.
    public func scoredAs(_ playerID: UUID) -> UUID {
        team(of: playerID)?.id ?? playerID
    }
}
