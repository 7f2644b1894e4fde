import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// Round ratings, player ratings and entered (PDGA) ratings.
struct RatingsAPIController {
    let stores: Stores

    func addRoutes(to api: RouteGroups) {
        api.coach.put("/players/:id/rating", use: enter)
        api.viewer.get("/players/:id/ratings", use: player)
        api.viewer.get("/rounds/:id/ratings", use: round)
        api.viewer.get("/courses/:id/stats", use: courseStats)
    }

    /// Every round on the layout; `?roundID=` one of them, `?eventID=` an event's rounds on it.
    @Sendable func courseStats(_ request: Request, context: AppRequestContext) async throws -> CourseStatsResponse {
        let courseID = try context.uuid("id", "Course")
        _ = try await stores.domain.course(courseID)
        var rounds: [UUID]?
        let query = request.uri.queryParameters
        if query.get("roundID") != nil, query.get("eventID") != nil {
            throw FieldErrors("roundID", "Give roundID or eventID, not both.")
        }
        if let text = query.get("roundID") {
            guard let id = UUID(text: String(text)) else { throw FieldErrors("roundID", "roundID is a round's id.") }
            let round = try await stores.domain.board(of: id).snapshot
            if round.round.archived { throw StoreError.notFound("Round") }
            if round.course.id != courseID { throw FieldErrors("roundID", "That round was played on another layout.") }
            rounds = [id]
        } else if let text = query.get("eventID") {
            guard let id = UUID(text: String(text)) else { throw FieldErrors("eventID", "eventID is an event's id.") }
            rounds = try await stores.domain.eventSnapshot(id).rounds.filter { !$0.round.archived }.map(\.round.id)
        }
        return CourseStatsResponse(courseID: courseID, try await stores.domain.holeStatistics(course: courseID, rounds: rounds))
    }

    @Sendable func enter(_ request: Request, context: AppRequestContext) async throws -> PlayerRatingsResponse {
        let body = try await request.decodeBody(EnteredRatingBody.self, context: context)
        let player = try await stores.domain.setEnteredRating(try context.uuid("id", "Player"), to: body.rating, actor: context.identity?.playerID)
        return PlayerRatingsResponse(player: player, rating: try await stores.domain.clubRatings().players[player.id])
    }

    @Sendable func player(_ request: Request, context: AppRequestContext) async throws -> PlayerRatingsResponse {
        let id = try context.uuid("id", "Player")
        guard let player = try await stores.domain.player(id) else { throw StoreError.notFound("Player") }
        return PlayerRatingsResponse(player: player, rating: try await stores.domain.clubRatings().players[player.id])
    }

    @Sendable func round(_ request: Request, context: AppRequestContext) async throws -> RoundRatingsResponse {
        let id = try context.uuid("id", "Round")
        let board = try await stores.domain.board(of: id)
        if board.snapshot.round.archived { throw StoreError.notFound("Round") }
        return RoundRatingsResponse(
            round: board.snapshot.round, rating: try await stores.domain.clubRatings().rounds[id], order: board.standings.entries.map(\.playerID))
    }
}
