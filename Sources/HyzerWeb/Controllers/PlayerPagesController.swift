import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// A player's page: ratings, rounds and how their holes go.
struct PlayerPagesController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to groups: RouteGroups) {
        groups.viewer.get("/players/:id", use: player)
    }

    @Sendable func player(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let id = try context.uuid("id", "Player")
        guard let player = try await stores.domain.player(id), !player.archived || context.identity?.role.includes(.coach) == true else {
            throw StoreError.notFound("Player")
        }
        let ratings = try await stores.domain.clubRatings()
        let page = PlayerPage(
            player: player, rating: ratings.players[player.id], ratings: ratings, boards: try await stores.domain.rounds(of: player.id),
            handicap: try await stores.domain.handicapHistory(of: player.id).current)
        return renderer.page(page, "player")
    }
}
