import Foundation

extension RoundSnapshot {
    /// The round as its boards and score entry see it. On a team round each team takes its
    /// players' place: it is the one scored (score events name the team), ranked, signed and
    /// carded; the players stay in `reporterNames` so a card still names who entered a score.
    /// A team has no handle (a player's is never empty): the boards neither show one nor link
    /// the team to a player page.
    /// On a putting round the lies take the holes' place. Stroke play is returned as it is.
    public var scoringView: RoundSnapshot {
        if round.format == .putting, let putting = round.putting {
            var view = self
            view.course = putting.course(named: course.name, id: course.id, createdAt: course.createdAt, updatedAt: course.updatedAt)
            return view
        }
        guard round.format.isTeam, !round.teams.isEmpty else { return self }
        var view = self
        let names = playerNames
        let teamOf = Dictionary(round.teams.flatMap { team in team.playerIDs.map { ($0, team.id) } }, uniquingKeysWith: { first, _ in first })
        view.players = round.teams.map { team in
            var player = Player(
                id: team.id, displayName: team.name(names), handle: Handle(trusted: ""), role: .athlete, createdAt: round.createdAt,
                updatedAt: round.updatedAt)
            player.archived = false
            return player
        }
        view.round.playerIDs = round.teams.map(\.id)
        // Teams are placed by division only when every team's players share one: otherwise
        // the round is one field (a team left without a division would fall off the boards).
        var divisions: [UUID: String] = [:]
        for team in round.teams {
            let shared = Set(team.playerIDs.map { round.divisions[$0] ?? "" })
            guard shared.count == 1, let only = shared.first, !only.isEmpty else {
                divisions = [:]
                break
            }
            divisions[team.id] = only
        }
        view.round.divisions = divisions
        // A team missing a withdrawn player cannot finish as a team.
        view.round.withdrawn = Set(round.teams.filter { !$0.playerIDs.filter(round.withdrawn.contains).isEmpty }.map(\.id))
        view.round.cards = round.cards.map { card in
            var card = card
            var seen = Set<UUID>()
            card.playerIDs = card.playerIDs.compactMap { teamOf[$0] }.filter { seen.insert($0).inserted }
            return card
        }
        // A player's signature signs their team's card.
        view.signatures = signatures.map { signature in
            var signed = signature
            signed.playerID = teamOf[signature.playerID] ?? signature.playerID
            return signed
        }
        // Handicaps are each player's own: a team's net is not defined.
        view.handicaps = [:]
        view.netUnplaced = false
        view.reporterNames = reporterNames.merging(names) { reporter, _ in reporter }
        return view
    }
}
