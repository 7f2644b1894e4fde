import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// `/api/v1/rounds…`: the JSON mirror of the round pages.
struct RoundsAPIController {
    let stores: Stores

    func addRoutes(to api: RouteGroups) {
        api.viewer.get("/rounds", use: list)
        api.viewer.get("/rounds/:id", use: detail)
        api.viewer.get("/rounds/:id/standings", use: standings)
        api.viewer.get("/rounds/:id/scores", use: scores)
        api.scorer.post("/rounds/:id/scores", use: recordScore)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> RoundListResponse {
        RoundListResponse(try await stores.domain.roundSummaries())
    }

    @Sendable func detail(_ request: Request, context: AppRequestContext) async throws -> RoundDetailResponse {
        RoundDetailResponse(try await stores.domain.snapshot(of: try context.uuid("id", "Round")))
    }

    @Sendable func standings(_ request: Request, context: AppRequestContext) async throws -> StandingsResponse {
        StandingsResponse(try await stores.domain.board(of: try context.uuid("id", "Round")))
    }

    @Sendable func scores(_ request: Request, context: AppRequestContext) async throws -> RoundScoresResponse {
        RoundScoresResponse(try await stores.domain.board(of: try context.uuid("id", "Round")))
    }

    /// 201 with the new event; 200 with `duplicate: true` when the same id and content was
    /// already recorded (a retried POST); 409 for the same id with other content.
    @Sendable func recordScore(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<ScoreCreatedResponse> {
        let roundID = try context.uuid("id", "Round")
        let payload = try await request.decodeBody(ScorePayload.self, context: context)
        let submission = try ScoreSubmission.parse(
            id: payload.id, playerID: payload.playerID, hole: String(payload.hole),
            strokes: payload.strokes.strokes.description, supersedes: payload.supersedes, penalties: payload.penalties.map(String.init)
        )
        let recorded = try await stores.domain.recordScore(submission, in: roundID, by: context.identity)
        let body = ScoreCreatedResponse(event: ScoreEventItem(recorded.event), duplicate: recorded.duplicate ? true : nil)
        return EditedResponse(status: recorded.duplicate ? .ok : .created, response: body)
    }
}
