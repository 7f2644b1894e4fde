import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// Bag-tag pools: the list, the new-pool form, the pool's page with a coach's moves, and its
/// holders as CSV.
struct TagPagesController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to groups: RouteGroups) {
        groups.viewer.get("/tags", use: pools)
        groups.coach.get("/tags/new", use: newPool)
        groups.coach.post("/tags", use: createPool)
        groups.viewer.get("/tags/:id", use: pool)
        groups.viewer.get("/tags/:id/holders.csv", use: holdersCSV)
        groups.viewer.get("/tags/:id/history.csv", use: historyCSV)
        groups.coach.post("/tags/:id/moves", use: move)
        groups.member.post("/tags/:id/challenges", use: challenge)
        groups.member.post("/tags/:id/challenges/:challengeID", use: answer)
    }

    @Sendable func challenge(_ request: Request, context: AppRequestContext) async throws -> Response {
        let poolID = try context.uuid("id", "Bag-tag pool")
        let form = try await request.decode(as: TagChallengeForm.self, context: context)
        let coach = context.identity?.role.includes(.coach) == true
        return try await acting(poolID, request, context) {
            guard let days = Int(form.days ?? "7") else { throw FieldErrors("days", "Days to answer is a whole number.") }
            let challenger = coach ? form.challengerID.flatMap(UUID.init(text:)) : context.identity?.playerID
            guard let challenger, let challenged = form.challengedID.flatMap(UUID.init(text:)) else {
                throw FieldErrors("challengedIDs", "Choose who challenges whom.")
            }
            _ = try await stores.domain.issueTagChallenge(
                in: poolID, challenger: challenger, challenged: [challenged], days: days, by: context.identity?.playerID, coach: coach)
            return "challenged"
        }
    }

    @Sendable func answer(_ request: Request, context: AppRequestContext) async throws -> Response {
        let poolID = try context.uuid("id", "Bag-tag pool")
        let challengeID = try context.uuid("challengeID", "Challenge")
        let form = try await request.decode(as: TagAnswerForm.self, context: context)
        return try await acting(poolID, request, context) {
            guard let answer = form.answer.flatMap(TagChallenge.Answer.init(rawValue:)) else {
                throw FieldErrors("answer", "Accept, decline or withdraw.")
            }
            let answered = try await stores.domain.answerTagChallenge(
                challengeID, answer, in: poolID, courseID: form.courseID.flatMap(UUID.init(text:)), by: context.identity?.playerID,
                coach: context.identity?.role.includes(.coach) == true)
            return answered.status.rawValue
        }
    }

    /// Runs a change from the pool's page: back to the page with what it did, or the page
    /// again with why it was refused.
    private func acting(_ poolID: UUID, _ request: Request, _ context: AppRequestContext, _ change: () async throws -> String) async throws
        -> Response
    {
        do {
            let done = try await change()
            return .redirect(to: "/tags/\(Format.id(poolID))?notice=\(done)#challenges", type: .normal)
        } catch let errors as FieldErrors {
            return try await refused(poolID, errors.summary, .unprocessableContent, request, context)
        } catch let rejection as LeagueRejection {
            return try await refused(poolID, rejection.message, rejection.status, request, context)
        }
    }

    @Sendable func pools(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let coach = context.identity?.role.includes(.coach) == true
        let items = try await stores.domain.tagPools().map { pool in
            DirectoryPage.Item(
                name: pool.name, detail: pool.numbers.count == 1 ? "1 tag" : "\(pool.numbers.count) tags", link: "/tags/\(Format.id(pool.id))",
                editLink: nil)
        }
        let query = request.uri.queryParameters.get("q").map { String($0) } ?? ""
        var page = DirectoryPage(
            title: "Bag tags", query: query, items: DirectoryPage.matching(query, items), total: items.count, newLink: coach ? "/tags/new" : nil,
            newLabel: "New tag pool")
        page.searchHint = "Pool name"
        page.emptyText = items.isEmpty ? "No bag tags yet. A pool of numbered tags changes hands as its tag rounds are completed." : page.emptyText
        return renderer.page(page, "directory")
    }

    @Sendable func newPool(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(TagPoolFormPage(form: FormState(), seasons: try await seasonOptions(selected: nil)), "tags-new")
    }

    @Sendable func createPool(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: TagPoolForm.self, context: context)
        do {
            let (count, listed) = try form.numbers()
            let (name, numbers) = try TagPool.validated(name: form.name, count: count, listed: listed)
            var seasonID: UUID?
            if let text = form.seasonID, !text.isEmpty {
                guard let id = UUID(text: text) else { throw FieldErrors("seasonID", "That season does not exist.") }
                seasonID = id
            }
            let pool = try await stores.domain.createTagPool(name: name, numbers: numbers, seasonID: seasonID, actor: context.identity?.playerID)
            return .redirect(to: "/tags/\(Format.id(pool.id))", type: .normal)
        } catch let errors as FieldErrors {
            return try await invalid(form, errors, request, context)
        } catch LeagueRejection.invalid(let errors) {
            return try await invalid(form, errors, request, context)
        }
    }

    private func invalid(_ form: TagPoolForm, _ errors: FieldErrors, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        let page = TagPoolFormPage(form: FormState(values: form.values, errors: errors), seasons: try await seasonOptions(selected: form.seasonID))
        return try renderer.page(page, "tags-new", status: .unprocessableContent).response(from: request, context: context)
    }

    @Sendable func pool(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let tag = request.uri.queryParameters.get("tag").flatMap { Int($0) }
        var page = try await poolPage(try context.uuid("id", "Bag-tag pool"), historyOf: tag, viewer: context.identity)
        switch request.uri.queryParameters.get("notice") {
        case "moved": page.done = "The move is recorded."
        case "challenged": page.done = "The challenge is issued."
        case "accepted": page.done = "The challenge is accepted: its tag round has started."
        case "declined": page.done = "The challenge is declined."
        case "withdrawn": page.done = "The challenge is withdrawn."
        default: break
        }
        return renderer.page(page, "tags")
    }

    @Sendable func move(_ request: Request, context: AppRequestContext) async throws -> Response {
        let poolID = try context.uuid("id", "Bag-tag pool")
        let form = try await request.decode(as: TagMoveForm.self, context: context)
        return try await acting(poolID, request, context) {
            _ = try await stores.domain.recordTagMove(try form.move(), in: poolID, actor: context.identity?.playerID)
            return "moved"
        }
    }

    private func refused(_ poolID: UUID, _ message: String, _ status: HTTPResponse.Status, _ request: Request, _ context: AppRequestContext)
        async throws -> Response
    {
        var page = try await poolPage(poolID, viewer: context.identity)
        page.error = message
        return try renderer.page(page, "tags", status: status).response(from: request, context: context)
    }

    @Sendable func holdersCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let ledger = try await stores.domain.tagLedger(try context.uuid("id", "Bag-tag pool"))
        let names = try await stores.domain.playerNames()
        var rows = [["tag", "player", "playerID", "since"]]
        let held = Dictionary(ledger.holders.map { ($0.tag, $0) }, uniquingKeysWith: { first, _ in first })
        for number in ledger.pool.numbers {
            if let holder = held[number] {
                rows.append([
                    String(number), names[holder.playerID] ?? "", Format.id(holder.playerID),
                    holder.since == .distantPast ? "" : holder.since.formatted(.iso8601),
                ])
            } else {
                rows.append([String(number), "", "", ""])
            }
        }
        return try CSVTables.response(rows, filename: ledger.pool.name)
    }

    @Sendable func historyCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let ledger = try await stores.domain.tagLedger(try context.uuid("id", "Bag-tag pool"))
        let names = try await stores.domain.playerNames()
        var rows = [["at", "kind", "roundID", "player", "playerID", "from", "to"]]
        for change in ledger.history {
            for movement in change.movements {
                rows.append([
                    change.at.formatted(.iso8601), change.kind.rawValue, change.roundID.map(Format.id) ?? "", names[movement.playerID] ?? "",
                    Format.id(movement.playerID), movement.from.map(String.init) ?? "", movement.to.map(String.init) ?? "",
                ])
            }
        }
        return try CSVTables.response(rows, filename: "\(ledger.pool.name) history")
    }

    private func poolPage(_ poolID: UUID, historyOf tag: Int? = nil, viewer: Identity?) async throws -> TagPoolPage {
        let ledger = try await stores.domain.tagLedger(poolID)
        let players = try await stores.domain.players()
        let names = try await stores.domain.playerNames()
        var season: String?
        // A removed season leaves its pool as it was: shown without the season's name.
        if let seasonID = ledger.pool.seasonID { season = try await stores.domain.seasons().first { $0.id == seasonID }?.name }
        var page = TagPoolPage(
            ledger, names: names, allPlayers: players.map { ($0.id, $0.displayName) }, seasonName: season, now: Date(), historyOf: tag)
        let courses = viewer == nil ? [] : try await stores.domain.courses().filter { !$0.archived }.map { ($0.id, $0.name) }
        page.showChallenges(
            ledger, names: names, viewer: viewer?.playerID, coach: viewer?.role.includes(.coach) == true, courses: courses, now: Date())
        return page
    }

    private func seasonOptions(selected: String?) async throws -> [Option] {
        try await stores.domain.seasons().filter { !$0.archived }.map {
            Option(value: Format.id($0.id), label: $0.name, selected: Format.id($0.id) == selected)
        }
    }
}
