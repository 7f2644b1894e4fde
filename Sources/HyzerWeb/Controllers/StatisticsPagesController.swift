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
        let page = PageNumber.lenient(request)
        let rounds = try await stores.domain.playerRounds(of: player.id)
        if page > 1, rounds.count <= (page - 1) * PlayerPage.perPage { throw HTTPError(.notFound, message: "There are fewer pages of rounds.") }
        let ratings = try await stores.domain.clubRatings()
        let handicap = try await stores.domain.handicapHistory(of: player.id)
        var view = PlayerPage(
            player: player, rating: ratings.players[player.id], ratings: ratings, rounds: rounds, page: page,
            handicap: handicap.current.map { ($0, handicap.currentSeason?.name ?? "") })
        view.tags = try await stores.domain.playerTags(player.id).map { pool, record in
            PlayerPage.TagLine(
                poolName: pool.name, poolLink: "/tags/\(Format.id(pool.id))", current: record.tag.map { "#\($0)" } ?? "none",
                since: record.since.map(Format.date) ?? "", best: record.best.map { "#\($0)" } ?? "", roundsAsFirst: record.roundsAsFirst)
        }
        return renderer.page(view, "player")
    }
}
