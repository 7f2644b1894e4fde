import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// The forms that set up a round: courses, players and the round itself. Each follows
/// POST → redirect → GET; bad input shows the form again with its values (422).
struct SetupPagesController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/courses/new", use: newCourse)
        router.post("/courses", use: createCourse)
        router.get("/players/new", use: newPlayer)
        router.post("/players", use: createPlayer)
        router.get("/rounds/new", use: newRound)
        router.post("/rounds", use: createRound)
    }

    // MARK: Courses

    @Sendable func newCourse(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(CourseFormPage(form: FormState(values: ["holeCount": "18"])), "course-new")
    }

    @Sendable func createCourse(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try await FormFields.read(request, context: context)
        let values = ["name": fields["name"] ?? "", "holeCount": fields["holeCount"] ?? "", "pars": fields["pars"] ?? "", "distances": fields["distances"] ?? ""]
        do {
            let valid = try CourseDraft(name: fields["name"], holeCount: fields["holeCount"], pars: fields["pars"], distances: fields["distances"]).validated()
            let course = try await stores.domain.createCourse(valid)
            return .redirect(to: "/rounds/new?courseID=\(Display.id(course.id))", type: .normal)
        } catch let errors as FieldErrors {
            return try renderer.page(CourseFormPage(form: FormState(values: values, errors: errors)), "course-new", status: .unprocessableContent)
                .response(from: request, context: context)
        }
    }

    // MARK: Players

    @Sendable func newPlayer(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(PlayerFormPage(form: FormState()), "player-new")
    }

    @Sendable func createPlayer(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try await FormFields.read(request, context: context)
        let values = ["displayName": fields["displayName"] ?? "", "handle": fields["handle"] ?? "", "role": fields["role"] ?? ""]
        do {
            let valid = try PlayerDraft(displayName: fields["displayName"], handle: fields["handle"], role: fields["role"]).validated()
            _ = try await stores.domain.createPlayer(valid)
            return .redirect(to: "/rounds/new", type: .normal)
        } catch let errors as FieldErrors {
            return try renderer.page(PlayerFormPage(form: FormState(values: values, errors: errors)), "player-new", status: .unprocessableContent)
                .response(from: request, context: context)
        }
    }

    // MARK: Rounds

    @Sendable func newRound(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let courseID = request.uri.queryParameters.get("courseID") ?? ""
        return try await roundForm(FormState(values: ["courseID": courseID]), chosenPlayers: [], startNow: true)
    }

    @Sendable func createRound(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try await FormFields.read(request, context: context)
        let courses = try await stores.domain.courses()
        let players = try await stores.domain.players()
        let draft = RoundDraft(name: fields["name"], courseID: fields["courseID"], playerIDs: fields.all("playerIDs"), startNow: fields.has("startNow"))
        do {
            let names = Dictionary(courses.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let valid = try draft.validated(knownCourses: Set(courses.map(\.id)), knownPlayers: Set(players.map(\.id))) { course in
                "\(names[course] ?? "Round") — \(Date().formatted(.dateTime.weekday(.wide).day().month(.abbreviated)))"
            }
            let round = try await stores.domain.createRound(valid)
            return .redirect(to: "/rounds/\(Display.id(round.id))", type: .normal)
        } catch let errors as FieldErrors {
            let values = ["name": fields["name"] ?? "", "courseID": fields["courseID"] ?? ""]
            return try await roundForm(FormState(values: values, errors: errors), chosenPlayers: Set(fields.all("playerIDs")), startNow: draft.startNow, status: .unprocessableContent)
                .response(from: request, context: context)
        }
    }

    private func roundForm(_ form: FormState, chosenPlayers: Set<String>, startNow: Bool, status: HTTPResponse.Status = .ok) async throws -> HTML {
        let page = RoundFormPage(
            courses: try await stores.domain.courses(), players: try await stores.domain.players(),
            form: form, chosenPlayers: chosenPlayers, startNow: startNow
        )
        return renderer.page(page, "round-new", status: status)
    }
}
