import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// `/api/v1/rounds…`: the JSON mirror of the round pages.
struct RoundsAPIController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to api: RouteGroups) {
        api.viewer.get("/rounds", use: list)
        api.viewer.get("/rounds/:id", use: detail)
        api.viewer.get("/rounds/:id/standings", use: standings)
        api.viewer.get("/rounds/:id/scores", use: scores)
        api.scorer.post("/rounds/:id/scores", use: recordScore)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> RoundListResponse {
        let page = try PageNumber.parse(request)
        let (summaries, hasMore) = try await stores.domain.roundSummaries(page: page)
        return RoundListResponse(summaries, page: page, hasMore: hasMore)
    }

    @Sendable func detail(_ request: Request, context: AppRequestContext) async throws -> RoundDetailResponse {
        RoundDetailResponse(try await stores.domain.snapshot(of: try context.uuid("id", "Round")))
    }

    @Sendable func standings(_ request: Request, context: AppRequestContext) async throws -> StandingsResponse {
        StandingsResponse(try await stores.domain.board(of: try context.uuid("id", "Round")))
    }

    /// Kept as bytes per round version (with its ETag): a round of thousands of events is
    /// encoded once per change, not once per call.
    @Sendable func scores(_ request: Request, context: AppRequestContext) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        return try await renderer.cachedPage(request, context, store: stores.domain, page: .roundScores(roundID)) {
            let board = try await stores.domain.board(of: roundID)
            return .init(json: RoundScoresResponse(board), version: board.version)
        }
    }

    /// 201 with the new event; 200 with `duplicate: true` when the same id and content was
    /// already recorded (a retried POST); 409 for the same id with other content.
    @Sendable func recordScore(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<ScoreCreatedResponse> {
        let roundID = try context.uuid("id", "Round")
        let payload = try await request.decodeBody(ScorePayload.self, context: context)
        if payload.playerID != nil && payload.teamID != nil {
            throw FieldErrors("teamID", "Send the team's id as \"teamID\" or the player's as \"playerID\", not both.")
        }
        let submission = try ScoreSubmission.parse(
            id: payload.id, playerID: payload.teamID ?? payload.playerID, hole: String(payload.hole),
            strokes: payload.strokes?.strokes.description, supersedes: payload.supersedes, penalties: payload.penalties.map(String.init),
            made: payload.made.map(String.init), mulligans: payload.mulligans.map(String.init)
        )
        let recorded = try await stores.domain.recordScore(submission, in: roundID, by: context.identity)
        let body = ScoreCreatedResponse(event: ScoreEventItem(recorded.event), duplicate: recorded.duplicate ? true : nil)
        return EditedResponse(status: recorded.duplicate ? .ok : .created, response: body)
    }
}
