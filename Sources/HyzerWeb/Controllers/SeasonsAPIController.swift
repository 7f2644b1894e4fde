import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// `/api/v1/seasons…`: league seasons, their rules and their tables.
struct SeasonsAPIController {
    let stores: Stores

    func addRoutes(to api: RouteGroups) {
        api.viewer.get("/seasons", use: list)
        api.coach.post("/seasons", use: create)
        api.viewer.get("/seasons/:id", use: detail)
        api.coach.patch("/seasons/:id", use: edit)
        api.viewer.get("/seasons/:id/standings", use: standings)
        api.viewer.get("/players/:id/handicaps", use: handicaps)
        api.viewer.get("/events/:id/checkins", use: checkIns)
        api.scorer.post("/events/:id/checkins", use: checkIn)
        api.scorer.delete("/events/:id/checkins/:playerID", use: cancelCheckIn)
        api.coach.get("/events/:id/fees", use: fees)
    }

    /// Who recorded each entry fee as paid or not, and when (a coach's: it is about money).
    @Sendable func fees(_ request: Request, context: AppRequestContext) async throws -> FeeLedgerResponse {
        let eventID = try context.uuid("id", "Event")
        return FeeLedgerResponse(eventID: eventID, ledger: try await stores.domain.feeLedger(of: eventID))
    }

    /// A coach takes anyone off the night; a player themselves, before it starts.
    @Sendable func cancelCheckIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await stores.domain.cancelCheckIn(
            of: try context.uuid("playerID", "Check-in"), at: try context.uuid("id", "Event"), by: context.identity)
        return Response(status: .noContent)
    }

    @Sendable func checkIns(_ request: Request, context: AppRequestContext) async throws -> CheckInListResponse {
        let eventID = try context.uuid("id", "Event")
        let list = try await stores.domain.checkIns(of: eventID)
        return CheckInListResponse(
            eventID: Format.id(eventID), checkins: list.map { CheckInResponse($0, viewer: context.identity) }, paid: list.filter(\.checkIn.paid).count
        )
    }

    /// The player themselves, or a coach (who also adds walk-ups and records fees): 201 for a
    /// new check-in, 200 for one made again.
    @Sendable func checkIn(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<CheckInResponse> {
        let eventID = try context.uuid("id", "Event")
        let body = try await request.decodeBody(CheckInBody.self, context: context)
        let entry = try await stores.domain.checkIn(
            try body.who, division: body.division, paid: body.paid, paidCents: body.paidCents, at: eventID, by: context.identity)
        return EditedResponse(status: entry.isNew ? .created : .ok, response: CheckInResponse(entry, viewer: context.identity))
    }

    @Sendable func handicaps(_ request: Request, context: AppRequestContext) async throws -> HandicapHistoryResponse {
        let playerID = try context.uuid("id", "Player")
        let (current, _, history) = try await stores.domain.handicapHistory(of: playerID)
        return HandicapHistoryResponse(playerID: playerID, current: current, history: history)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> SeasonListResponse {
        SeasonListResponse(seasons: try await stores.domain.seasons().map { SeasonResponse($0) })
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<SeasonResponse> {
        let body = try await request.decodeBody(SeasonBody.self, context: context)
        let season = try await stores.domain.createSeason(try body.draft.validated(), createdBy: context.identity?.playerID)
        return EditedResponse(status: .created, response: SeasonResponse(season))
    }

    /// Changes what the body names; the table is computed again.
    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> SeasonResponse {
        let body = try await request.decodeBody(SeasonBody.self, context: context)
        guard !body.onlyFees || body.fees != nil else { throw EditingAPIController.nothingToChange() }
        let id = try context.uuid("id", "Season")
        let current = try await stores.domain.seasonSnapshot(id)
        guard !current.season.archived else { throw StoreError.notFound("Season") }
        var season = current.season
        if !body.onlyFees {
            // Checked whole before anything is written: a bad plan leaves the season as it was.
            let valid = try body.draft(editing: current.season).validated()
            if let fees = body.fees { _ = try fees.validated(divisions: valid.divisions, pots: Set(try await stores.domain.pots().map(\.id))) }
            season = try await stores.domain.editSeason(id, valid, actor: context.identity?.playerID)
        }
        if let fees = body.fees { season = try await stores.domain.setSeasonFees(id, fees, actor: context.identity?.playerID) }
        return SeasonResponse(season, nights: current.nights.map(\.event))
    }

    @Sendable func detail(_ request: Request, context: AppRequestContext) async throws -> SeasonResponse {
        let snapshot = try await stores.domain.seasonSnapshot(try context.uuid("id", "Season"))
        return SeasonResponse(snapshot.season, nights: snapshot.nights.map(\.event))
    }

    @Sendable func standings(_ request: Request, context: AppRequestContext) async throws -> SeasonStandingsResponse {
        SeasonStandingsResponse(try await stores.domain.seasonSnapshot(try context.uuid("id", "Season")))
    }
}
