import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// A player's page (ratings, rounds and how their holes go) and a layout's page (how its
/// holes play over every round on it).
struct StatisticsPagesController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to groups: RouteGroups) {
        groups.viewer.get("/players/:id", use: player)
        groups.viewer.get("/courses/:id", use: course)
    }

    @Sendable func course(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let id = try context.uuid("id", "Course")
        let course = try await stores.domain.course(id)
        let statistics = try await stores.domain.holeStatistics(course: id)
        return renderer.page(CoursePage(course: course, holes: HoleStatisticsView(course: course, statistics: statistics)), "course")
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
