import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// The forms that set up a round: courses, players and the round itself. Each follows
/// POST → redirect → GET; bad input shows the form again with its values (422).
struct SetupPagesController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to groups: RouteGroups) {
        groups.coach.get("/courses/new", use: newCourse)
        groups.coach.post("/courses", use: createCourse)
        groups.coach.get("/players/new", use: newPlayer)
        groups.coach.post("/players", use: createPlayer)
        groups.coach.get("/rounds/new", use: newRound)
        groups.coach.post("/rounds", use: createRound)
    }

    // MARK: Courses

    @Sendable func newCourse(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(CourseFormPage(form: FormState(values: ["holeCount": "18"])), "course-new")
    }

    @Sendable func createCourse(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: CourseForm.self, context: context)
        do {
            let valid = try form.draft.validated()
            let course = try await stores.domain.createCourse(valid)
            return .redirect(to: "/rounds/new?courseID=\(Format.id(course.id))", type: .normal)
        } catch let errors as FieldErrors {
            return try renderer.page(
                CourseFormPage(form: FormState(values: form.values, errors: errors)), "course-new", status: .unprocessableContent
            )
            .response(from: request, context: context)
        }
    }

    // MARK: Players

    @Sendable func newPlayer(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(PlayerFormPage(form: FormState(), creator: context.identity?.role ?? .athlete), "player-new")
    }

    @Sendable func createPlayer(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: PlayerForm.self, context: context)
        do {
            let valid = try PlayerDraft(displayName: form.displayName, handle: form.handle, role: form.role).validated()
            _ = try await stores.domain.createPlayer(valid, by: context.identity?.playerID)
            return .redirect(to: "/rounds/new", type: .normal)
        } catch let errors as FieldErrors {
            return try renderer.page(
                PlayerFormPage(form: FormState(values: form.values, errors: errors), creator: context.identity?.role ?? .athlete), "player-new",
                status: .unprocessableContent
            )
            .response(from: request, context: context)
        }
    }

    // MARK: Rounds

    @Sendable func newRound(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let courseID = request.uri.queryParameters.get("courseID") ?? ""
        let eventID = request.uri.queryParameters.get("eventID") ?? ""
        let tagsID = request.uri.queryParameters.get("tagsID") ?? ""
        // A league night's round starts with those checked in, in their divisions.
        var chosen: Set<String> = []
        var divisions: [String: String] = [:]
        if let event = UUID(text: String(eventID)), let checkedIn = try? await stores.domain.checkIns(of: event) {
            for entry in checkedIn {
                let id = Format.id(entry.checkIn.playerID)
                chosen.insert(id)
                if !entry.checkIn.division.isEmpty { divisions[id] = entry.checkIn.division }
            }
        }
        // A bracket's match: played as match play by its two players (the store names them).
        let matchID = request.uri.queryParameters.get("matchID").map { String($0) } ?? ""
        return try await roundForm(
            FormState(values: [
                "courseID": String(courseID), "eventID": String(eventID), "tagsID": String(tagsID), "matchID": matchID,
                "format": matchID.isEmpty ? "" : RoundFormat.match.rawValue,
            ]), chosenPlayers: chosen,
            startNow: true,
            chosenDivisions: divisions)
    }

    @Sendable func createRound(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: RoundForm.self, context: context)
        var draft = RoundDraft(
            name: form.name, courseID: form.courseID, playerIDs: form.playerIDs ?? [], startNow: form.startNow != nil,
            eventID: form.eventID, divisions: form.divisions ?? [:], tagsID: form.tagsID)
        form.addFormat(to: &draft)
        do {
            let round = try await stores.domain.createRound(draft, createdBy: context.identity?.playerID)
            return .redirect(to: "/rounds/\(Format.id(round.id))", type: .normal)
        } catch let errors as FieldErrors {
            return try await roundForm(
                FormState(values: form.values, errors: errors), chosenPlayers: Set(form.playerIDs ?? []), startNow: draft.startNow,
                chosenDivisions: form.divisions ?? [:], status: .unprocessableContent
            )
            .response(from: request, context: context)
        }
    }

    private func roundForm(
        _ form: FormState, chosenPlayers: Set<String>, startNow: Bool, chosenDivisions: [String: String] = [:], status: HTTPResponse.Status = .ok
    ) async throws -> HTML {
        var page = RoundFormPage(
            courses: try await stores.domain.courses(), players: try await stores.domain.players(),
            form: form, chosenPlayers: chosenPlayers, startNow: startNow, events: try await stores.domain.events(), chosenDivisions: chosenDivisions
        )
        page.tagPools = try await stores.domain.tagPools().map {
            Option(value: Format.id($0.id), label: $0.name, selected: Format.id($0.id) == form.values["tagsID"])
        }
        page.hasTagPools = !page.tagPools.isEmpty
        return renderer.page(page, "round-new", status: status)
    }
}
