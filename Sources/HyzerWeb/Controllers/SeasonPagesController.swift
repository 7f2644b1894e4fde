import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// League seasons: the list, the new-season form and the season page with its table.
struct SeasonPagesController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to groups: RouteGroups) {
        groups.viewer.get("/seasons", use: seasons)
        groups.coach.get("/seasons/new", use: newSeason)
        groups.coach.post("/seasons", use: createSeason)
        groups.viewer.get("/seasons/:id", use: season)
        groups.coach.get("/seasons/:id/edit", use: editSeason)
        groups.coach.post("/seasons/:id", use: saveSeason)
    }

    @Sendable func editSeason(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let season = try await stores.domain.seasonSnapshot(try context.uuid("id", "Season")).season
        guard !season.archived else { throw StoreError.notFound("Season") }
        return renderer.page(SeasonFormPage.editing(season), "season-new")
    }

    @Sendable func saveSeason(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.uuid("id", "Season")
        let form = try await request.decode(as: SeasonForm.self, context: context)
        let season = try await stores.domain.seasonSnapshot(id).season
        guard !season.archived else { throw StoreError.notFound("Season") }
        do {
            _ = try await stores.domain.editSeason(id, try form.draft().validated(), actor: context.identity?.playerID)
            return .redirect(to: "/seasons/\(Format.id(id))?notice=saved", type: .normal)
        } catch let errors as FieldErrors {
            return try renderer.page(
                SeasonFormPage.editing(season, form: FormState(values: form.values, errors: errors)), "season-new", status: .unprocessableContent
            )
            .response(from: request, context: context)
        }
    }

    @Sendable func seasons(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let coach = context.identity?.role.includes(.coach) == true
        let items = try await stores.domain.seasons().map { season in
            DirectoryPage.Item(
                name: season.name,
                detail: ([season.startsOn, season.endsOn].compactMap { $0 }.joined(separator: " – ") + " " + season.divisions.joined(separator: " · "))
                    .trimmingCharacters(in: .whitespaces),
                link: "/seasons/\(Format.id(season.id))", editLink: coach ? "/seasons/\(Format.id(season.id))/edit" : nil)
        }
        let query = request.uri.queryParameters.get("q").map { String($0) } ?? ""
        var page = DirectoryPage(
            title: "Seasons", query: query, items: DirectoryPage.matching(query, items), total: items.count, newLink: coach ? "/seasons/new" : nil,
            newLabel: "New season")
        page.searchHint = "Season name"
        page.emptyText = items.isEmpty ? "No seasons yet. A season gathers league nights (events) into one points table." : page.emptyText
        return renderer.page(page, "directory")
    }

    @Sendable func newSeason(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(SeasonFormPage(form: FormState(values: ["rule": "fieldSize", "placesBy": "gross"])), "season-new")
    }

    @Sendable func createSeason(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: SeasonForm.self, context: context)
        do {
            let season = try await stores.domain.createSeason(try form.draft().validated(), createdBy: context.identity?.playerID)
            return .redirect(to: "/seasons/\(Format.id(season.id))", type: .normal)
        } catch let errors as FieldErrors {
            return try renderer.page(
                SeasonFormPage(form: FormState(values: form.values, errors: errors)), "season-new", status: .unprocessableContent
            )
            .response(from: request, context: context)
        }
    }

    @Sendable func season(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(SeasonPage(try await stores.domain.seasonSnapshot(try context.uuid("id", "Season"))), "season")
    }
}

/// The new-season form as posted: numbers arrive as text and are checked here, so a typo is
/// a message on its field, not a refused request.
struct SeasonForm: Decodable, Sendable {
    var name: String?
    var startsOn: String?
    var endsOn: String?
    var divisions: String?
    var placesBy: String?
    var rule: String?
    var table: String?
    var pastTable: String?
    var participation: String?
    var bestNights: String?
    var countBack: String?
    var handicap: String?
    var percent: String?
    var minimumRounds: String?
    var unhandicapped: String?

    var values: [String: String] {
        [
            "name": name ?? "", "startsOn": startsOn ?? "", "endsOn": endsOn ?? "", "divisions": divisions ?? "", "placesBy": placesBy ?? "",
            "rule": rule ?? "", "table": table ?? "", "pastTable": pastTable ?? "", "participation": participation ?? "",
            "bestNights": bestNights ?? "", "countBack": countBack ?? "", "handicap": handicap ?? "", "percent": percent ?? "",
            "minimumRounds": minimumRounds ?? "", "unhandicapped": unhandicapped ?? "",
            "unplaced": unhandicapped == "unplaced" ? "on" : "",
        ]
    }

    func draft() throws(FieldErrors) -> SeasonDraft {
        var errors = FieldErrors()
        func number(_ text: String?, _ field: String, _ label: String) -> Int? {
            let trimmed = (text ?? "").trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return nil }
            guard let value = Int(trimmed) else {
                errors.add(field, "\(label) is a whole number.")
                return nil
            }
            return value
        }
        var table: [Int]?
        let listed = (self.table ?? "").split(whereSeparator: { $0 == "," || $0 == " " || $0.isNewline })
        if !listed.isEmpty {
            let numbers = listed.compactMap { Int($0) }
            if numbers.count == listed.count {
                table = numbers
            } else {
                errors.add("table", "The points table is whole numbers separated by commas.")
            }
        }
        let draft = SeasonDraft(
            name: name, startsOn: startsOn, endsOn: endsOn, divisions: EventDraft.divisionList(divisions), placesBy: placesBy, rule: rule,
            // The form always sends its select; past the table means something only with one.
            table: (rule ?? "") == "table" ? table : nil, pastTable: (rule ?? "") == "table" ? pastTable : nil,
            participation: number(participation, "participation", "Points for taking part"),
            bestNights: number(bestNights, "bestNights", "Best nights counted"), countBack: countBack == "on" || countBack == "true",
            handicap: handicap, percent: number(percent, "percent", "The percentage"),
            minimumRounds: number(minimumRounds, "minimumRounds", "Rounds before a handicap"), unhandicapped: unhandicapped)
        try errors.throwIfAny()
        return draft
    }
}
