import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// Events (tournaments, league nights): the new-event form, the event page with its
/// standings, the playoff, and planning a round's cards.
struct EventPagesController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to groups: RouteGroups) {
        groups.coach.get("/events/new", use: newEvent)
        groups.coach.post("/events", use: createEvent)
        groups.viewer.get("/events/:id", use: event)
        groups.coach.post("/events/:id/playoff", use: playoff)
        groups.coach.post("/rounds/:id/cards/plan", use: planCards)
        groups.coach.get("/rounds/:id/cards/edit", use: editCards)
        groups.coach.post("/rounds/:id/cards/edit", use: saveCards)
    }

    @Sendable func editCards(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(CardEditPage(board: try await stores.domain.board(of: try context.uuid("id", "Round"))), "cards-edit")
    }

    /// Cards by hand: "Card N" for each number chosen, players in the round's order.
    @Sendable func saveCards(_ request: Request, context: AppRequestContext) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        let form = try await request.decode(as: CardEditForm.self, context: context)
        let board = try await stores.domain.board(of: roundID)
        var members: [Int: [UUID]] = [:]
        for id in board.snapshot.round.playerIDs {
            guard let number = form.card?[Format.id(id)].flatMap({ Int($0) }), number > 0 else { continue }
            members[number, default: []].append(id)
        }
        do {
            var cards: [Card] = []
            for number in members.keys.sorted() {
                guard let start = form.start?["card-\(number)"].flatMap({ Int($0) }) else {
                    throw LeagueRejection.invalid(FieldErrors("cards", "Card \(number) needs a starting hole."))
                }
                cards.append(Card(id: UUID(), name: "Card \(number)", startingHole: start, playerIDs: members[number] ?? []))
            }
            _ = try await stores.domain.setCards(cards, of: roundID)
            return .redirect(to: "/rounds/\(Format.id(roundID))#cards", type: .normal)
        } catch LeagueRejection.invalid(let errors) {
            var state = FormState(values: [:], errors: errors)
            state.message = errors.summary
            return try renderer.page(CardEditPage(board: board, form: state, chosen: form.card, starts: form.start), "cards-edit", status: .unprocessableContent)
                .response(from: request, context: context)
        }
    }

    @Sendable func newEvent(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(EventFormPage(form: FormState()), "event-new")
    }

    @Sendable func createEvent(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: EventForm.self, context: context)
        do {
            let valid = try EventDraft(name: form.name, divisions: EventDraft.divisionList(form.divisions)).validated()
            let event = try await stores.domain.createEvent(valid, createdBy: context.identity?.playerID)
            return .redirect(to: "/events/\(Format.id(event.id))", type: .normal)
        } catch let errors as FieldErrors {
            return try renderer.page(EventFormPage(form: FormState(values: form.values, errors: errors)), "event-new", status: .unprocessableContent)
                .response(from: request, context: context)
        }
    }

    @Sendable func event(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let snapshot = try await stores.domain.eventSnapshot(try context.uuid("id", "Event"))
        return renderer.page(page(snapshot, form: FormState()), "event")
    }

    private func page(_ snapshot: EventSnapshot, form: FormState) -> EventPage {
        EventPage(title: snapshot.event.name, board: EventBoardView(event: snapshot.event, rounds: snapshot.rounds, standings: snapshot.standings), form: form)
    }

    @Sendable func playoff(_ request: Request, context: AppRequestContext) async throws -> Response {
        let eventID = try context.uuid("id", "Event")
        let form = try await request.decode(as: PlayoffForm.self, context: context)
        do {
            guard let winner = form.winner.flatMap(UUID.init(text:)) else { throw LeagueRejection.invalid(FieldErrors("winner", "Choose the playoff winner.")) }
            _ = try await stores.domain.recordPlayoff(eventID: eventID, division: form.division ?? "", winner: winner)
            return .redirect(to: "/events/\(Format.id(eventID))", type: .normal)
        } catch let rejection as LeagueRejection {
            var state = FormState()
            state.message = rejection.message
            let status: HTTPResponse.Status = if case .invalid = rejection { .unprocessableContent } else { .conflict }
            return try renderer.page(page(try await stores.domain.eventSnapshot(eventID), form: state), "event", status: status).response(from: request, context: context)
        }
    }

    @Sendable func planCards(_ request: Request, context: AppRequestContext) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        let form = try await request.decode(as: CardPlanForm.self, context: context)
        _ = try await stores.domain.planCards(of: roundID, shotgun: form.shotgun != nil, firstTee: nil)
        return .redirect(to: "/rounds/\(Format.id(roundID))#cards", type: .normal)
    }
}
