import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// An event's bracket page (live; `?tv=1` for a TV) and the coach's form that makes it.
struct BracketPagesController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to groups: RouteGroups) {
        groups.viewer.get("/events/:id/bracket", use: bracket)
        groups.coach.get("/events/:id/bracket/new", use: newBracket)
        groups.coach.post("/events/:id/bracket", use: createBracket)
    }

    @Sendable func bracket(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let snapshot = try await stores.domain.bracketSnapshot(eventID: try context.uuid("id", "Event"))
        return renderer.page(BracketPage(snapshot, tv: request.uri.queryParameters.get("tv") == "1"), "bracket")
    }

    @Sendable func newBracket(_ request: Request, context: AppRequestContext) async throws -> HTML {
        try await formPage(try context.uuid("id", "Event"), chosen: [], error: nil)
    }

    private func formPage(_ eventID: UUID, chosen: Set<String>, error: String?, status: HTTPResponse.Status = .ok) async throws -> HTML {
        let event = try await stores.domain.eventSnapshot(eventID).event
        // The night's check-ins are ticked: the field is usually who came.
        let checkedIn = Set(try await stores.domain.checkIns(of: eventID).filter { !$0.checkIn.cancelled }.map { Format.id($0.checkIn.playerID) })
        let players = try await stores.domain.players().map {
            Option(value: Format.id($0.id), label: $0.displayName, selected: (chosen.isEmpty ? checkedIn : chosen).contains(Format.id($0.id)))
        }
        return renderer.page(
            BracketFormPage(title: "Bracket for \(event.name)", eventID: Format.id(eventID), players: players, error: error), "bracket-new",
            status: status)
    }

    @Sendable func createBracket(_ request: Request, context: AppRequestContext) async throws -> Response {
        let eventID = try context.uuid("id", "Event")
        let form = try await request.decode(as: BracketForm.self, context: context)
        do {
            let known = Set(try await stores.domain.players().map(\.id))
            let players = try Bracket.validatedSeeds(form.playerIDs ?? [], known: known)
            guard let balance = TeamDraw.Balance(rawValue: form.seedBy ?? ""), balance != .none else {
                throw FieldErrors("seedBy", "Seed the players by rating or by handicap.")
            }
            let seeds = try await stores.domain.seeded(players, by: balance, eventID: eventID)
            _ = try await stores.domain.createBracket(eventID: eventID, seeds: seeds, deadlines: [], actor: context.identity?.playerID)
            return .redirect(to: "/events/\(Format.id(eventID))/bracket", type: .normal)
        } catch let errors as FieldErrors {
            return try await formPage(eventID, chosen: Set(form.playerIDs ?? []), error: errors.summary, status: .unprocessableContent)
                .response(from: request, context: context)
        } catch let rejection as LeagueRejection {
            return try await formPage(eventID, chosen: Set(form.playerIDs ?? []), error: rejection.message, status: rejection.status)
                .response(from: request, context: context)
        }
    }
}

/// The bracket form: `playerIDs[]` ticked, and how they are seeded.
struct BracketForm: Decodable, Sendable {
    var playerIDs: [String]?
    var seedBy: String?
}
