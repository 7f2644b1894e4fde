import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// The money pages: the club's books (`/money`) with its pots and CSV, a pot's page, a
/// night's money, and a season's fees. Money is a coach's; a pot's page is everyone's when
/// the club makes pots public.
struct MoneyPagesController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to groups: RouteGroups) {
        groups.coach.get("/money", use: books)
        groups.coach.get("/money/ledger.csv", use: ledgerCSV)
        groups.coach.post("/pots", use: createPot)
        groups.viewer.get("/pots/:id", use: pot)
        groups.coach.post("/pots/:id/contributions", use: contribute)
        groups.coach.post("/pots/:id/payouts", use: payPot)
        groups.coach.get("/events/:id/money", use: night)
        groups.coach.post("/events/:id/payouts", use: payPurse)
        groups.coach.get("/seasons/:id/fees", use: fees)
        groups.coach.post("/seasons/:id/fees", use: saveFees)
    }

    static let notices = [
        "pot": "The pot is made.", "contributed": "The amount is recorded.", "paid": "The payout is recorded.",
        "rolled": "No winner: the pot rolls over.", "fees": "The fees are saved; fees paid from now on are split this way.",
    ]

    static func notice(_ request: Request) -> String? { request.uri.queryParameters.get("done").flatMap { notices[String($0)] } }

    // MARK: Books

    @Sendable func books(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let seasonID = request.uri.queryParameters.get("seasonID").flatMap { UUID(text: String($0)) }
        var page = try await booksPage(seasonID: seasonID)
        page.done = Self.notice(request)
        return renderer.page(page, "money")
    }

    private func booksPage(seasonID: UUID?, form: FormState = FormState()) async throws -> BooksPage {
        let (table, currency) = try await MoneyAPIController.ledgerTable(stores.domain, seasonID: seasonID)
        return BooksPage(
            table: table, books: try await stores.domain.books(), pots: try await stores.domain.pots(),
            seasons: try await stores.domain.seasons().filter { !$0.archived }, seasonID: seasonID, currency: currency, form: form)
    }

    @Sendable func ledgerCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let seasonID = try MoneyAPIController.id(request.uri.queryParameters.get("seasonID").map { String($0) }, "seasonID", "a season")
        let (table, currency) = try await MoneyAPIController.ledgerTable(stores.domain, seasonID: seasonID)
        return try CSVTables.response(table.csv(currency: currency), filename: "ledger")
    }

    @Sendable func createPot(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: PotForm.self, context: context)
        do {
            var cap: Int?
            if let typed = form.cap, !typed.trimmingCharacters(in: .whitespaces).isEmpty {
                guard let cents = Money.cents(typed: typed) else { throw FieldErrors("capCents", "\(typed) is no amount (150 or 150.00).") }
                cap = cents
            }
            _ = try await stores.domain.createPot(
                name: form.name, kind: form.kind, seasonID: form.seasonID.flatMap { UUID(text: $0) }, capCents: cap,
                overflowPotID: form.overflowPotID.flatMap { UUID(text: $0) }, actor: context.identity?.playerID)
            return .redirect(to: "/money?done=pot", type: .normal)
        } catch let errors as FieldErrors {
            return try await refusedBooks(errors.summary, .unprocessableContent, request, context)
        } catch let rejection as LeagueRejection {
            return try await refusedBooks(rejection.message, rejection.status, request, context)
        }
    }

    private func refusedBooks(_ message: String, _ status: HTTPResponse.Status, _ request: Request, _ context: AppRequestContext) async throws
        -> Response
    {
        var page = try await booksPage(seasonID: nil)
        page.error = message
        return try renderer.page(page, "money", status: status).response(from: request, context: context)
    }

    // MARK: A pot

    @Sendable func pot(_ request: Request, context: AppRequestContext) async throws -> HTML {
        var page = try await potPage(try context.uuid("id", "Pot"), context)
        page.done = Self.notice(request)
        return renderer.page(page, "pot")
    }

    private func potPage(_ id: UUID, _ context: AppRequestContext) async throws -> PotPage {
        let settings = try await stores.domain.clubSettings()
        let coach = MoneyAPIController.isCoach(context)
        guard coach || settings.showsPots else { throw LeagueRejection.forbidden("The club keeps its pots' balances to its coaches.") }
        let books = try await stores.domain.books()
        guard let pot = books.pots[id], !pot.archived else { throw StoreError.notFound("Pot") }
        let events = try await stores.domain.events()
        return PotPage(
            pot, books: books, names: try await stores.domain.playerNames(),
            eventNames: Dictionary(events.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a }), currency: settings.currencyCode, audit: coach,
            nights: Array(events.prefix(20)))
    }

    @Sendable func contribute(_ request: Request, context: AppRequestContext) async throws -> Response {
        let potID = try context.uuid("id", "Pot")
        let form = try await request.decode(as: ContributionForm.self, context: context)
        do {
            let typed = (form.amount ?? "").trimmingCharacters(in: .whitespaces)
            let negative = typed.hasPrefix("-") || typed.hasPrefix("−")
            guard let cents = Money.cents(typed: negative ? String(typed.dropFirst()) : typed), cents > 0 else {
                throw FieldErrors("amount", "Give the amount (12 or 12.50; −12 to correct).")
            }
            _ = try await stores.domain.contribute(
                to: potID, cents: negative ? -cents : cents, eventID: form.eventID.flatMap { UUID(text: $0) }, note: form.note,
                actor: context.identity?.playerID)
            return .redirect(to: "/pots/\(Format.id(potID))?done=contributed", type: .normal)
        } catch let errors as FieldErrors {
            return try await refusedPot(potID, errors.summary, .unprocessableContent, request, context)
        } catch let rejection as LeagueRejection {
            return try await refusedPot(potID, rejection.message, rejection.status, request, context)
        }
    }

    private func refusedPot(_ id: UUID, _ message: String, _ status: HTTPResponse.Status, _ request: Request, _ context: AppRequestContext)
        async throws -> Response
    {
        var page = try await potPage(id, context)
        page.error = message
        return try renderer.page(page, "pot", status: status).response(from: request, context: context)
    }

    /// From the night's page: the ace pot to its eligible aces, a CTP pot to its winner, or
    /// a rollover; back to the night.
    @Sendable func payPot(_ request: Request, context: AppRequestContext) async throws -> Response {
        let potID = try context.uuid("id", "Pot")
        let form = try await request.decode(as: PotPayoutForm.self, context: context)
        guard let eventID = form.eventID.flatMap({ UUID(text: $0) }) else { throw FieldErrors("eventID", "Name the night.") }
        return try await onNight(eventID, request, context) {
            // A CTP pot: one choice per hole, "rollover" where nobody won it.
            let holes = form.holes.flatMap { TextRules.wholeNumber($0) }
            let choices = holes.map { Array((form.playerID ?? []).prefix($0)) } ?? (form.playerID ?? [])
            let winners = choices.filter { $0 != "rollover" && !$0.isEmpty }
            let ids = try winners.map { text throws(FieldErrors) in
                guard let id = UUID(text: text) else { throw FieldErrors("playerID", "Choose the winner.") }
                return id
            }
            _ = try await stores.domain.payPot(
                potID, eventID: eventID, playerIDs: ids, shares: ids.isEmpty ? nil : holes, rolloverTo: nil, actor: context.identity?.playerID)
            return ids.isEmpty ? "rolled" : "paid"
        }
    }

    // MARK: A night

    @Sendable func night(_ request: Request, context: AppRequestContext) async throws -> HTML {
        var page = try await nightPage(try context.uuid("id", "Event"))
        page.done = Self.notice(request)
        return renderer.page(page, "night-money")
    }

    private func nightPage(_ eventID: UUID) async throws -> NightMoneyPage {
        let money = try await stores.domain.nightMoney(eventID)
        let event = try await stores.domain.eventSnapshot(eventID).event
        let checkedIn = try await stores.domain.checkIns(of: eventID).map(\.checkIn.playerID)
        return NightMoneyPage(
            money, event: event, names: try await stores.domain.playerNames(), pots: try await stores.domain.pots(),
            currency: try await stores.domain.clubSettings().currencyCode, checkedIn: checkedIn)
    }

    @Sendable func payPurse(_ request: Request, context: AppRequestContext) async throws -> Response {
        let eventID = try context.uuid("id", "Event")
        let form = try await request.decode(as: PursePayoutForm.self, context: context)
        return try await onNight(eventID, request, context) {
            guard let playerID = form.playerID.flatMap({ UUID(text: $0) }) else { throw FieldErrors("playerID", "Choose the player.") }
            var cents: Int?
            if let typed = form.amount, !typed.trimmingCharacters(in: .whitespaces).isEmpty {
                guard let value = Money.cents(typed: typed) else { throw FieldErrors("amount", "\(typed) is no amount (12 or 12.50).") }
                cents = value
            }
            var method: MoneyEntry.Method?
            if let raw = form.method, !raw.isEmpty {
                guard let known = MoneyEntry.Method(rawValue: raw) else { throw FieldErrors("method", "Paid in cash or as credit.") }
                method = known
            }
            _ = try await stores.domain.recordPursePayout(
                eventID: eventID, playerID: playerID, cents: cents, method: method, division: nil, place: nil, note: nil,
                actor: context.identity?.playerID)
            return "paid"
        }
    }

    private func onNight(_ eventID: UUID, _ request: Request, _ context: AppRequestContext, _ change: () async throws -> String) async throws
        -> Response
    {
        do {
            let done = try await change()
            return .redirect(to: "/events/\(Format.id(eventID))/money?done=\(done)", type: .normal)
        } catch let errors as FieldErrors {
            return try await refusedNight(eventID, errors.summary, .unprocessableContent, request, context)
        } catch let rejection as LeagueRejection {
            return try await refusedNight(eventID, rejection.message, rejection.status, request, context)
        }
    }

    private func refusedNight(_ id: UUID, _ message: String, _ status: HTTPResponse.Status, _ request: Request, _ context: AppRequestContext)
        async throws -> Response
    {
        var page = try await nightPage(id)
        page.error = message
        return try renderer.page(page, "night-money", status: status).response(from: request, context: context)
    }

    // MARK: A season's fees

    @Sendable func fees(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let season = try await stores.domain.seasonSnapshot(try context.uuid("id", "Season")).season
        var page = SeasonFeesPage(season, pots: try await stores.domain.pots(), currency: try await stores.domain.clubSettings().currencyCode)
        page.done = Self.notice(request)
        return renderer.page(page, "season-fees")
    }

    @Sendable func saveFees(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.uuid("id", "Season")
        let form = try await request.decode(as: SeasonFeesForm.self, context: context)
        let season = try await stores.domain.seasonSnapshot(id).season
        do {
            _ = try await stores.domain.setSeasonFees(id, try form.plan(divisions: season.divisions), actor: context.identity?.playerID)
            return .redirect(to: "/seasons/\(Format.id(id))/fees?done=fees", type: .normal)
        } catch let errors as FieldErrors {
            return try await refusedFees(season, FormState(values: form.values, errors: errors), request, context)
        } catch LeagueRejection.invalid(let errors) {
            return try await refusedFees(season, FormState(values: form.values, errors: errors), request, context)
        }
    }

    private func refusedFees(_ season: Season, _ form: FormState, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        let page = SeasonFeesPage(
            season, pots: try await stores.domain.pots(), currency: try await stores.domain.clubSettings().currencyCode, form: form)
        return try renderer.page(page, "season-fees", status: .unprocessableContent).response(from: request, context: context)
    }
}
