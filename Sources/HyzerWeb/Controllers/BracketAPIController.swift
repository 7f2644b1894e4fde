import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// `/api/v1/events/{id}/bracket…`: an event's single-elimination bracket (a coach makes it and
/// records concessions; everyone reads it). Its matches are played as match-play rounds
/// (`POST /api/v1/rounds` with `"format": "match", "matchID"`).
struct BracketAPIController {
    let stores: Stores

    func addRoutes(to api: RouteGroups) {
        api.coach.post("/events/:id/bracket", use: create)
        api.viewer.get("/events/:id/bracket", use: bracket)
        api.coach.post("/events/:id/bracket/concessions", use: concede)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<BracketResponse> {
        let eventID = try context.uuid("id", "Event")
        let body = try await request.decodeBody(BracketBody.self, context: context)
        if let kind = body.kind, kind != "single" { throw FieldErrors("kind", "Brackets are single elimination (\"single\").") }
        let known = Set(try await stores.domain.players().map(\.id))
        let seeds: [UUID]
        switch (body.seeds, body.players) {
        case (let given?, nil):
            if body.seedBy != nil { throw FieldErrors("seedBy", "Seeds given in order need no \"seedBy\".") }
            seeds = try Bracket.validatedSeeds(given, known: known)
        case (nil, let players?):
            let balance = TeamDraw.Balance(rawValue: body.seedBy ?? "")
            guard let balance, balance != .none else { throw FieldErrors("seedBy", "Seed the players by \"rating\" or \"handicap\".") }
            seeds = try await stores.domain.seeded(try Bracket.validatedSeeds(players, known: known), by: balance, eventID: eventID)
        default:
            throw FieldErrors("seeds", "Send the seeds in order, or the players with \"seedBy\", one of the two.")
        }
        let snapshot = try await stores.domain.createBracket(
            eventID: eventID, seeds: seeds, deadlines: body.deadlines ?? [], actor: context.identity?.playerID)
        return EditedResponse(status: .created, response: BracketResponse(snapshot))
    }

    @Sendable func bracket(_ request: Request, context: AppRequestContext) async throws -> BracketResponse {
        BracketResponse(try await stores.domain.bracketSnapshot(eventID: try context.uuid("id", "Event")))
    }

    @Sendable func concede(_ request: Request, context: AppRequestContext) async throws -> BracketResponse {
        let body = try await request.decodeBody(ConcessionBody.self, context: context)
        guard let match = UUID(text: body.matchID) else { throw FieldErrors("matchID", "That is not a match id.") }
        guard let player = UUID(text: body.playerID) else { throw FieldErrors("playerID", "That is not a player id.") }
        return BracketResponse(
            try await stores.domain.concede(match: match, by: player, eventID: try context.uuid("id", "Event"), actor: context.identity?.playerID))
    }
}
