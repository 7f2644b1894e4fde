import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// What a director needs on league night without the command line: lists with search, edit
/// and remove for courses, players, events and rounds, late arrivals and withdrawals, a
/// completion that says who becomes DNF, reopening, and CSV uploads. Every form follows
/// POST → redirect → GET with a notice; bad input shows the form again with its values (422).
struct DirectorPagesController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to groups: RouteGroups) {
        groups.coach.get("/courses", use: courses)
        groups.coach.get("/courses/:id/edit", use: editCourse)
        groups.coach.post("/courses/:id", use: saveCourse)
        groups.coach.get("/players", use: players)
        groups.coach.get("/players/:id/edit", use: editPlayer)
        groups.coach.post("/players/:id", use: savePlayer)
        groups.coach.get("/players/import", use: playerImport)
        groups.coach.post("/players/import", use: importPlayers)
        groups.viewer.get("/events", use: events)
        groups.coach.get("/events/:id/edit", use: editEvent)
        groups.coach.post("/events/:id", use: saveEvent)
        for (path, type) in [("courses", RecordType.course), ("players", .player), ("events", .event), ("rounds", .round), ("seasons", .season)] {
            groups.coach.post("/\(path)/:id/remove") { request, context in try await remove(type, list: path, request: request, context: context) }
        }
        groups.coach.get("/rounds/:id/edit", use: editRound)
        groups.coach.post("/rounds/:id", use: renameRound)
        groups.coach.post("/rounds/:id/players", use: addPlayer)
        groups.coach.post("/rounds/:id/players/:playerID/withdraw", use: withdraw)
        groups.coach.get("/rounds/:id/complete", use: confirmCompletion)
        groups.coach.post("/rounds/:id/reopen", use: reopen)
        groups.coach.get("/rounds/:id/results/import", use: resultsImport)
        groups.coach.post("/rounds/:id/results/import", use: importResults)
        groups.admin.post("/admin/demo/remove", use: removeDemo)
    }

    func query(_ request: Request) -> String {
        String((request.uri.queryParameters.get("q") ?? "").prefix(80)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func notice(_ path: String, _ key: Notice) -> Response {
        .redirect(to: "\(path)\(path.contains("?") ? "&" : "?")notice=\(key.rawValue)", type: .normal)
    }

    // MARK: Removing (asking first: DirectorPagesController+Remove.swift)

    @Sendable func removeDemo(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await stores.domain.removeDemoData(actor: context.identity?.playerID)
        return notice("/admin", .demoRemoved)
    }
}

/// The notices a redirect may ask a page to show: fixed texts, so nothing from the address
/// is ever shown.
enum Notice: String, Sendable {
    case saved, deleted, archived, added, withdrawn, imported, revoked, demoRemoved = "demo-removed", checkedIn = "checked-in"

    /// The notice a request's address asks for, with an import's counts.
    static func text(of request: Request) -> String? {
        guard let key = request.uri.queryParameters.get("notice").flatMap({ Notice(rawValue: String($0)) }) else { return nil }
        // Whether someone is checked in is the page's to say (from the list, not the address).
        if key == .checkedIn { return nil }
        guard key == .imported else { return key.text }
        let added = request.uri.queryParameters.get("added").flatMap { Int(String($0)) } ?? 0
        let updated = request.uri.queryParameters.get("updated").flatMap { Int(String($0)) } ?? 0
        let ignored = request.uri.queryParameters.get("ignored").map { String($0) } ?? ""
        return "Imported: \(added) added, \(updated) updated." + (ignored.isEmpty ? "" : " Columns not read (Hyzer keeps no such field): \(ignored).")
    }

    var text: String {
        switch self {
        case .saved: "Saved."
        case .deleted: "Removed."
        case .archived: "Archived: kept in every result, hidden from lists and pickers."
        case .added: "Added to the round."
        case .withdrawn: "Withdrawn."
        case .imported: "Imported."
        case .revoked: "Invite revoked: its link opens nothing now."
        case .demoRemoved: "The demo data is removed."
        case .checkedIn: "You're checked in. See you on the first tee."
        }
    }
}

extension FormState {
    /// A form refused by the data (a conflict or a rule): the reason at the top.
    init(values: [String: String], rejection: LeagueRejection) {
        if case .invalid(let errors) = rejection {
            self.init(values: values, errors: errors)
        } else {
            self.init(values: values)
            message = rejection.message
        }
    }
}

extension LeagueRejection {
    /// The status a page answers a refused change with.
    var status: HTTPResponse.Status {
        switch self {
        case .invalid: .unprocessableContent
        case .forbidden: .forbidden
        case .conflict: .conflict
        }
    }
}
