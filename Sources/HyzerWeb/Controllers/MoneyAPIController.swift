import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// `/api/v1/pots…`, a night's money and the books. Money is a coach's; a player sees their
/// own aces and payouts; pot balances are everyone's when the club says so.
struct MoneyAPIController {
    let stores: Stores

    func addRoutes(to api: RouteGroups) {
        api.viewer.get("/pots", use: list)
        api.coach.post("/pots", use: create)
        api.viewer.get("/pots/:id", use: detail)
        api.coach.post("/pots/:id/contributions", use: contribute)
        api.coach.post("/pots/:id/payouts", use: payPot)
        api.member.get("/events/:id/money", use: night)
        api.coach.post("/events/:id/payouts", use: payPurse)
        api.coach.get("/money/ledger", use: ledger)
    }

    static func isCoach(_ context: AppRequestContext) -> Bool { context.identity?.role.includes(.coach) == true }

    /// Who may see pots: coaches, and everyone when the club makes them public.
    func potsVisible(_ context: AppRequestContext) async throws -> (settings: ClubSettingsPayload, audit: Bool) {
        let settings = try await stores.domain.clubSettings()
        let coach = Self.isCoach(context)
        guard coach || settings.showsPots else { throw LeagueRejection.forbidden("The club keeps its pots' balances to its coaches.") }
        return (settings, coach)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> PotListResponse {
        let (settings, audit) = try await potsVisible(context)
        let books = try await stores.domain.books()
        return PotListResponse(
            pots: try await stores.domain.pots().map {
                PotResponse($0, books: books, currency: settings.currencyCode, audit: audit, withLedger: false)
            })
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<PotResponse> {
        let body = try await request.decodeBody(PotBody.self, context: context)
        let pot = try await stores.domain.createPot(
            name: body.name, kind: body.kind, seasonID: try Self.id(body.seasonID, "seasonID", "a season"), capCents: body.capCents,
            overflowPotID: try Self.id(body.overflowPotID, "overflowPotID", "a pot"), actor: context.identity?.playerID)
        let settings = try await stores.domain.clubSettings()
        return EditedResponse(
            status: .created, response: PotResponse(pot, books: try await stores.domain.books(), currency: settings.currencyCode, audit: true))
    }

    @Sendable func detail(_ request: Request, context: AppRequestContext) async throws -> PotResponse {
        let (settings, audit) = try await potsVisible(context)
        let id = try context.uuid("id", "Pot")
        let books = try await stores.domain.books()
        guard let pot = books.pots[id], !pot.archived else { throw StoreError.notFound("Pot") }
        return PotResponse(pot, books: books, currency: settings.currencyCode, audit: audit)
    }

    @Sendable func contribute(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<MoneyEntryResponse> {
        let body = try await request.decodeBody(ContributionBody.self, context: context)
        let entry = try await stores.domain.contribute(
            to: try context.uuid("id", "Pot"), cents: body.cents, eventID: try Self.id(body.eventID, "eventID", "a night"), note: body.note,
            actor: context.identity?.playerID)
        return EditedResponse(status: .created, response: MoneyEntryResponse(entry))
    }

    @Sendable func payPot(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<MoneyEntryListResponse> {
        let body = try await request.decodeBody(PotPayoutBody.self, context: context)
        guard let eventID = UUID(text: body.eventID) else { throw FieldErrors("eventID", "eventID is a night's id.") }
        let players = try body.playerIDs.map { text throws(FieldErrors) in
            guard let id = UUID(text: text) else { throw FieldErrors("playerIDs", "Name each winner by their player id.") }
            return id
        }
        let entries = try await stores.domain.payPot(
            try context.uuid("id", "Pot"), eventID: eventID, playerIDs: players, shares: body.shares,
            rolloverTo: try Self.id(body.rolloverTo, "rolloverTo", "a pot"),
            actor: context.identity?.playerID)
        return EditedResponse(status: .created, response: MoneyEntryListResponse(entries: entries.map { MoneyEntryResponse($0) }))
    }

    @Sendable func night(_ request: Request, context: AppRequestContext) async throws -> NightMoneyResponse {
        let money = try await stores.domain.nightMoney(try context.uuid("id", "Event"))
        let settings = try await stores.domain.clubSettings()
        return NightMoneyResponse(money, currency: settings.currencyCode, viewer: context.identity, showPots: settings.showsPots)
    }

    @Sendable func payPurse(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<MoneyEntryResponse> {
        let body = try await request.decodeBody(PursePayoutBody.self, context: context)
        guard let playerID = UUID(text: body.playerID) else { throw FieldErrors("playerID", "playerID is a player's id.") }
        var method: MoneyEntry.Method?
        if let raw = body.method {
            guard let known = MoneyEntry.Method(rawValue: raw) else { throw FieldErrors("method", "A payout is paid in cash or as credit.") }
            method = known
        }
        let entry = try await stores.domain.recordPursePayout(
            eventID: try context.uuid("id", "Event"), playerID: playerID, cents: body.cents, method: method, division: body.division,
            place: body.place, note: body.note, actor: context.identity?.playerID)
        return EditedResponse(status: .created, response: MoneyEntryResponse(entry))
    }

    @Sendable func ledger(_ request: Request, context: AppRequestContext) async throws -> LedgerResponse {
        let seasonID = try Self.id(request.uri.queryParameters.get("seasonID").map { String($0) }, "seasonID", "a season")
        let (table, currency) = try await Self.ledgerTable(stores.domain, seasonID: seasonID)
        return LedgerResponse(table, currency: currency, seasonID: seasonID)
    }

    /// The books, or a season's part of them (its nights and its pots), with names.
    static func ledgerTable(_ store: DomainStore, seasonID: UUID?) async throws -> (LedgerTable, currency: String) {
        let books = try await store.books()
        let names = try await store.playerNames()
        let events = try await store.events()
        let eventNames = Dictionary(events.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let currency = try await store.clubSettings().currencyCode
        guard let seasonID else { return (LedgerTable(books, names: names, eventNames: eventNames), currency) }
        guard try await store.seasons().contains(where: { $0.id == seasonID }) else { throw StoreError.notFound("Season") }
        let nights = try await store.seasonEventIDs(seasonID)
        let pots = Set(books.pots.values.filter { $0.seasonID == seasonID }.map(\.id))
        return (
            LedgerTable(
                books, names: names, eventNames: eventNames,
                keep: { line in line.eventID.map(nights.contains) ?? false || line.fund.potID.map(pots.contains) ?? false }), currency
        )
    }

    static func id(_ text: String?, _ field: String, _ what: String) throws(FieldErrors) -> UUID? {
        guard let text else { return nil }
        guard let id = UUID(text: text) else { throw FieldErrors(field, "\(field) is \(what)'s id.") }
        return id
    }
}
