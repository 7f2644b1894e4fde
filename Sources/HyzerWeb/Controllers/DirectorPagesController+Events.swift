import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

// Events: the list, the edit page and its save.
extension DirectorPagesController {
    @Sendable func events(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let coach = context.identity?.role.includes(.coach) == true
        let items = try await stores.domain.events().map { event in
            DirectoryPage.Item(
                name: event.name, detail: event.divisions.isEmpty ? "one field" : event.divisions.joined(separator: " · "),
                link: "/events/\(Format.id(event.id))", editLink: coach ? "/events/\(Format.id(event.id))/edit" : nil)
        }
        let query = query(request)
        return renderer.page(
            DirectoryPage(
                title: "Events", query: query, items: DirectoryPage.matching(query, items), total: items.count,
                newLink: coach ? "/events/new" : nil, newLabel: "New event", searchHint: "Event name"), "directory")
    }

    @Sendable func editEvent(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let event = try await stores.domain.eventSnapshot(try context.uuid("id", "Event")).event
        return eventPage(
            event, FormState(values: ["name": event.name, "playedOn": event.playedOn ?? "", "divisions": event.divisions.joined(separator: ", ")]))
    }

    func eventPage(_ event: Event, _ form: FormState, status: HTTPResponse.Status = .ok) -> HTML {
        renderer.page(
            EventFormPage(title: "Edit \(event.name)", form: form, target: .edit("/events/\(Format.id(event.id))", event.name), isEdit: true),
            "event-new", status: status)
    }

    @Sendable func saveEvent(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.uuid("id", "Event")
        let event = try await stores.domain.eventSnapshot(id).event
        let form = try await request.decode(as: EventForm.self, context: context)
        do {
            let valid = try EventDraft(name: form.name, divisions: EventDraft.divisionList(form.divisions), playedOn: form.playedOn).validated()
            _ = try await stores.domain.editEvent(
                id, name: valid.name, playedOn: valid.playedOn ?? "", divisions: valid.divisions, actor: context.identity?.playerID)
            return notice("/events/\(Format.id(id))/edit", .saved)
        } catch let errors as FieldErrors {
            return try eventPage(event, FormState(values: form.values, errors: errors), status: .unprocessableContent).response(
                from: request, context: context)
        } catch let rejection as LeagueRejection {
            return try eventPage(event, FormState(values: form.values, rejection: rejection), status: rejection.status).response(
                from: request, context: context)
        }
    }
}
