import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// The round page (scorecard, score entry, corrections), its leaderboard page, and the
/// round's start / complete actions.
struct RoundPagesController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to groups: RouteGroups) {
        groups.viewer.get("/rounds/:id", use: round)
        groups.viewer.get("/rounds/:id/leaderboard", use: leaderboard)
        groups.scorer.post("/rounds/:id/scores", use: recordScore)
        groups.scorer.get("/rounds/:id/scores/:eventID/correct", use: correction)
        groups.coach.post("/rounds/:id/start", use: start)
        groups.coach.post("/rounds/:id/complete", use: complete)
        groups.coach.post("/rounds/:id/mulligans", use: sellMulligans)
    }

    /// A coach sells a player mulligans from the round page; a refusal shows the page again
    /// with the reason beside the sale form.
    @Sendable func sellMulligans(_ request: Request, context: AppRequestContext) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        let form = try await request.decode(as: MulliganSaleForm.self, context: context)
        var status = HTTPResponse.Status.unprocessableContent
        var message: String
        do {
            let count = Int((form.count ?? "").trimmingCharacters(in: .whitespaces)) ?? 0
            let (player, checked, _) = try MulliganSaleBody(playerID: form.playerID ?? "", count: count, cents: nil).validated()
            _ = try await stores.domain.sellMulligans(checked, cents: nil, to: player, in: roundID, by: context.identity?.playerID)
            return .redirect(to: "/rounds/\(Format.id(roundID))#mulligans", type: .normal)
        } catch let errors as FieldErrors {
            message = errors.summary
        } catch let rejection as LeagueRejection {
            message = rejection.message
            if case .conflict = rejection { status = .conflict }
        }
        let board = try await stores.domain.board(of: roundID)
        var state = FormState(values: ["salePlayerID": form.playerID ?? "", "count": form.count ?? ""])
        state.errors["sale"] = message
        // A round without mulligans has no section to show the reason in.
        if board.snapshot.round.mulligans == nil { state.message = message }
        let page = RoundPage(board: board, form: state, viewer: context.identity?.playerID, viewerRole: context.identity?.role)
        return try renderer.page(page, "round", status: status).response(from: request, context: context)
    }

    @Sendable func round(_ request: Request, context: AppRequestContext) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        return try await renderer.cachedPage(request, context, store: stores.domain, page: .round(roundID)) {
            let board = try await stores.domain.board(of: roundID)
            // An athlete scores only themselves: their name is already chosen.
            var form = FormState()
            if let identity = context.identity, identity.role == .athlete { form.values["playerID"] = Format.id(identity.playerID) }
            var page = RoundPage(board: board, form: form, viewer: context.identity?.playerID, viewerRole: context.identity?.role)
            page.tags = try await tags(of: board)
            return .init(html: renderer.page(page, "round"), version: board.version)
        }
    }

    @Sendable func leaderboard(_ request: Request, context: AppRequestContext) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        // A division is one of the round's (or its event's) or nothing: anything else shows
        // every division, so made-up names make no new cache keys. Only a page that names one
        // reads the board first (a SQLite read: a quarter of a kept page's cost without it).
        var division: String?
        if let asked = request.uri.queryParameters.get("division").flatMap({ Division.validated(String($0)) }) {
            let known = try await stores.domain.board(of: roundID).snapshot
            division = (known.event?.divisions ?? []).contains(asked) || known.round.divisions.values.contains(asked) ? asked : nil
        }
        return try await renderer.cachedPage(request, context, store: stores.domain, page: .leaderboard(roundID, division: division)) {
            let board = try await stores.domain.board(of: roundID)
            var page = LeaderboardPage(board: board, division: division)
            page.tags = try await tags(of: board)
            return .init(html: renderer.page(page, "leaderboard-page"), version: board.version)
        }
    }

    /// A tag round's tags. The exchange depends on every earlier tag round of the pool, not
    /// only this one: derived at each render (any commit renders a kept page again). A pool
    /// not here yet (still syncing) shows nothing.
    private func tags(of board: RoundBoard) async throws -> TagRoundView? {
        guard let poolID = board.snapshot.round.tagsID else { return nil }
        do {
            return TagRoundView(ledger: try await stores.domain.tagLedger(poolID), round: board.snapshot.round, names: board.snapshot.playerNames)
        } catch StoreError.notFound {
            return nil
        }
    }

    @Sendable func correction(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let board = try await stores.domain.board(of: try context.uuid("id", "Round"))
        guard let page = CorrectionPage(board: board, eventID: try context.uuid("eventID", "Score")) else {
            throw StoreError.notFound("Score")
        }
        return renderer.page(page, "score-correct")
    }

    /// The score entry and correction forms post here. Refused input shows the same form
    /// again (422) with the values kept and the message beside the field.
    @Sendable func recordScore(_ request: Request, context: AppRequestContext) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        let form = try await request.decode(as: ScoreForm.self, context: context)
        do {
            let submission = try ScoreSubmission.parse(
                id: form.id, playerID: form.playerID, hole: form.hole,
                strokes: form.strokes, supersedes: form.supersedes, penalties: form.penalties, made: form.made, mulligans: form.mulligans
            )
            _ = try await stores.domain.recordScore(submission, in: roundID, by: context.identity)
            return .redirect(to: "/rounds/\(Format.id(roundID))#scorecard", type: .normal)
        } catch ScoreRejection.notYours {
            // A refusal by role is a 403 page, like every other (see `Problem`).
            throw ScoreRejection.notYours
        } catch let rejection as ScoreRejection {
            return try await refused(roundID: roundID, form: form, errors: Self.fieldErrors(rejection), request: request, context: context)
        } catch let errors as FieldErrors {
            return try await refused(roundID: roundID, form: form, errors: errors, request: request, context: context)
        }
    }

    private func refused(roundID: UUID, form submitted: ScoreForm, errors: FieldErrors, request: Request, context: AppRequestContext) async throws
        -> Response
    {
        let board = try await stores.domain.board(of: roundID)
        let form = FormState(values: submitted.values, errors: errors)
        if let corrected = submitted.supersedes.flatMap(UUID.init(text:)),
            let page = CorrectionPage(board: board, eventID: corrected, form: form)
        {
            return try renderer.page(page, "score-correct", status: .unprocessableContent).response(from: request, context: context)
        }
        return try renderer.page(RoundPage(board: board, form: form), "round", status: .unprocessableContent).response(
            from: request, context: context)
    }

    static func fieldErrors(_ rejection: ScoreRejection) -> FieldErrors {
        switch rejection {
        case .invalid(let errors): errors
        case .conflict(let field, let message, _): FieldErrors(field, message)
        case .notYours: FieldErrors("playerID", ScoreRejection.notYours.message)
        case .signed: FieldErrors("playerID", rejection.message)
        }
    }

    @Sendable func start(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await move(request, context: context, to: .active)
    }

    /// Completing turns whoever has holes left into DNF: the form must come from the page that
    /// names them (`confirm`); anything else is shown that page first.
    @Sendable func complete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        let form = try await request.decode(as: ConfirmForm.self, context: context)
        guard form.confirm == "yes" else {
            _ = try await stores.domain.snapshot(of: roundID)
            return .redirect(to: "/rounds/\(Format.id(roundID))/complete", type: .normal)
        }
        return try await move(request, context: context, to: .completed)
    }

    private func move(_ request: Request, context: AppRequestContext, to status: RoundStatus) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        do {
            _ = try await stores.domain.setStatus(of: roundID, to: status)
            return .redirect(to: "/rounds/\(Format.id(roundID))", type: .normal)
        } catch let rejection as ScoreRejection {
            let board = try await stores.domain.board(of: roundID)
            var form = FormState()
            form.message = rejection.message
            return try renderer.page(RoundPage(board: board, form: form), "round", status: .conflict).response(from: request, context: context)
        }
    }
}
