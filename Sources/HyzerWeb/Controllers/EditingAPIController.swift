import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// `/api/v1/…` editing and removing: players, courses, events and rounds changed after they
/// were made, late arrivals, withdrawals and reopening. Coach or admin; each edit is checked
/// by the same drafts as the creating call and answers the object as it now is.
struct EditingAPIController {
    let stores: Stores

    func addRoutes(to api: RouteGroups) {
        api.coach.patch("/players/:id", use: editPlayer)
        api.coach.patch("/courses/:id", use: editCourse)
        api.coach.patch("/events/:id", use: editEvent)
        api.coach.patch("/rounds/:id", use: editRound)
        api.coach.post("/rounds/:id/players", use: addPlayer)
        api.coach.delete("/rounds/:id/players/:playerID", use: withdraw)
        api.coach.post("/rounds/:id/reopen", use: reopen)
        for (path, type) in [("players", RecordType.player), ("courses", .course), ("events", .event), ("rounds", .round), ("seasons", .season)] {
            api.coach.delete("/\(path)/:id") { request, context in try await remove(type, request: request, context: context) }
        }
    }

    static func nothingToChange() -> Problem {
        Problem(status: .unprocessableContent, title: "Nothing to change", detail: "Name at least one field to change.")
    }

    @Sendable func editPlayer(_ request: Request, context: AppRequestContext) async throws -> PlayerResponse {
        let body = try await request.decodeBody(PlayerPatchBody.self, context: context)
        guard body.displayName != nil || body.handle != nil || body.division != nil else { throw Self.nothingToChange() }
        let id = try context.uuid("id", "Player")
        guard let current = try await stores.domain.player(id), !current.archived else { throw StoreError.notFound("Player") }
        let valid = try PlayerDraft(
            displayName: body.displayName ?? current.displayName, handle: body.handle ?? current.handle.value, role: current.role.rawValue
        ).validated()
        let division = try body.division.map { raw throws(FieldErrors) in try Division.usual(raw) }
        let player = try await stores.domain.editPlayer(
            id, displayName: body.displayName == nil ? nil : valid.displayName,
            handle: body.handle == nil ? nil : valid.handle, division: division, actor: context.identity?.playerID)
        return PlayerResponse(player)
    }

    @Sendable func editCourse(_ request: Request, context: AppRequestContext) async throws -> CourseResponse {
        let body = try await request.decodeBody(CoursePatchBody.self, context: context)
        guard body.name != nil || body.holes != nil else { throw Self.nothingToChange() }
        let id = try context.uuid("id", "Course")
        let current = try await stores.domain.course(id)
        let holes = body.holes ?? current.holes.map { CourseBody.HoleBody(number: $0.number, par: $0.par, distance: $0.distance) }
        let valid = try CourseBody.HoleBody.draft(name: body.name ?? current.name, holes: holes).validated()
        let course = try await stores.domain.editCourse(
            id, name: body.name == nil ? nil : valid.name, holes: body.holes == nil ? nil : valid.holes,
            actor: context.identity?.playerID)
        return CourseResponse(course)
    }

    @Sendable func editEvent(_ request: Request, context: AppRequestContext) async throws -> EventResponse {
        let body = try await request.decodeBody(EventPatchBody.self, context: context)
        guard body.name != nil || body.playedOn != nil || body.divisions != nil || body.checkInOpen != nil else { throw Self.nothingToChange() }
        let id = try context.uuid("id", "Event")
        let current = try await stores.domain.eventSnapshot(id).event
        let valid = try EventDraft(
            name: body.name ?? current.name, divisions: body.divisions ?? current.divisions, playedOn: body.playedOn ?? current.playedOn
        ).validated()
        // One transaction: a refused part (a finished night's check-in) leaves the rest unwritten too.
        _ = try await stores.domain.editEvent(
            id, name: body.name == nil ? nil : valid.name, playedOn: body.playedOn == nil ? nil : (valid.playedOn ?? ""),
            divisions: body.divisions == nil ? nil : valid.divisions, checkInOpen: body.checkInOpen, actor: context.identity?.playerID)
        let snapshot = try await stores.domain.eventSnapshot(id)
        return EventResponse(snapshot.event, rounds: snapshot.rounds)
    }

    @Sendable func editRound(_ request: Request, context: AppRequestContext) async throws -> RoundDetailResponse {
        let body = try await request.decodeBody(RoundPatchBody.self, context: context)
        guard body.name != nil || body.tagsID != nil else { throw Self.nothingToChange() }
        let id = try context.uuid("id", "Round")
        let name = try body.name.map { name throws(FieldErrors) in try Round.validatedName(name) }
        var pool: UUID??
        if let text = body.tagsID {
            var errors = FieldErrors()
            let known = Set(try await stores.domain.tagPools().map(\.id))
            pool = .some(RoundDraft.validatedPool(text, knownPools: known, into: &errors))
            try errors.throwIfAny()
        }
        return RoundDetailResponse(try await stores.domain.editRound(id, name: name, tagsID: pool, actor: context.identity?.playerID))
    }

    @Sendable func addPlayer(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<RoundDetailResponse> {
        let body = try await request.decodeBody(LateArrivalBody.self, context: context)
        guard let playerID = UUID(text: body.playerID) else { throw FieldErrors("playerID", "The player must be a player id.") }
        var cardID: UUID?
        if let text = body.cardID {
            guard let id = UUID(text: text) else { throw FieldErrors("cardID", "The card must be a card id.") }
            cardID = id
        }
        let snapshot = try await stores.domain.addPlayer(
            playerID, division: body.division, card: cardID, to: try context.uuid("id", "Round"),
            actor: context.identity?.playerID)
        return EditedResponse(status: .created, response: RoundDetailResponse(snapshot))
    }

    @Sendable func withdraw(_ request: Request, context: AppRequestContext) async throws -> RoundDetailResponse {
        let playerID = try context.uuid("playerID", "Player")
        return RoundDetailResponse(
            try await stores.domain.withdraw(playerID, from: try context.uuid("id", "Round"), actor: context.identity?.playerID))
    }

    @Sendable func reopen(_ request: Request, context: AppRequestContext) async throws -> RoundDetailResponse {
        RoundDetailResponse(try await stores.domain.reopen(try context.uuid("id", "Round"), actor: context.identity?.playerID))
    }

    /// 204 when deleted; 200 `{"archived":true}` when kept as history.
    @Sendable func remove(_ type: RecordType, request: Request, context: AppRequestContext) async throws -> Response {
        switch try await stores.domain.remove(type, try context.uuid("id", type.noun), actor: context.identity?.playerID) {
        case .deleted: Response(status: .noContent)
        case .archived: try ArchivedResponse(archived: true).response(from: request, context: context)
        }
    }
}
