import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// The pages of a round's cards: a coach plans or edits them; on a phone a card is scored
/// hole by hole and signed.
struct CardPagesController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to groups: RouteGroups) {
        groups.viewer.get("/rounds/:id/cards/:cardID", use: card)
        groups.scorer.post("/rounds/:id/cards/:cardID/holes/:hole", use: saveHole)
        groups.scorer.post("/rounds/:id/signatures", use: sign)
        groups.coach.post("/rounds/:id/cards/plan", use: planCards)
        groups.coach.get("/rounds/:id/cards/edit", use: editCards)
        groups.coach.post("/rounds/:id/cards/edit", use: saveCards)
    }

    @Sendable func planCards(_ request: Request, context: AppRequestContext) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        let form = try await request.decode(as: CardPlanForm.self, context: context)
        _ = try await stores.domain.planCards(of: roundID, shotgun: form.shotgun != nil, firstTee: nil, draw: form.draw != nil)
        return .redirect(to: "/rounds/\(Format.id(roundID))#cards", type: .normal)
    }

    @Sendable func editCards(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(CardEditPage(board: try await stores.domain.board(of: try context.uuid("id", "Round"))), "cards-edit")
    }

    @Sendable func saveCards(_ request: Request, context: AppRequestContext) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        let form = try await request.decode(as: CardEditForm.self, context: context)
        let board = try await stores.domain.board(of: roundID)
        do {
            var numbers: [UUID: Int] = [:]
            for id in board.snapshot.round.playerIDs {
                if let number = form.card?[Format.id(id)].flatMap({ Int($0) }) { numbers[id] = number }
            }
            let starts = (form.start ?? [:]).reduce(into: [Int: Int]()) { result, pair in
                if let number = TextRules.wholeNumber(pair.key.replacingOccurrences(of: "card-", with: "")),
                    let hole = TextRules.wholeNumber(pair.value)
                {
                    result[number] = hole
                }
            }
            var cards = try CardRules.cards(numbers: numbers, starts: starts, order: board.snapshot.round.playerIDs)
            // A team round's cards are edited team by team, and hold the teams' players.
            let teams = Dictionary(board.snapshot.round.teams.map { ($0.id, $0.playerIDs) }, uniquingKeysWith: { first, _ in first })
            if !teams.isEmpty {
                for index in cards.indices { cards[index].playerIDs = cards[index].playerIDs.flatMap { teams[$0] ?? [$0] } }
            }
            _ = try await stores.domain.setCards(cards, of: roundID)
            return .redirect(to: "/rounds/\(Format.id(roundID))#cards", type: .normal)
        } catch let errors as FieldErrors {
            return try refusedEdit(board, form: form, errors, request: request, context: context)
        } catch LeagueRejection.invalid(let errors) {
            return try refusedEdit(board, form: form, errors, request: request, context: context)
        }
    }

    private func refusedEdit(_ board: RoundBoard, form: CardEditForm, _ errors: FieldErrors, request: Request, context: AppRequestContext) throws
        -> Response
    {
        var state = FormState(values: [:], errors: errors)
        state.message = errors.summary
        return try renderer.page(
            CardEditPage(board: board, form: state, chosen: form.card, starts: form.start), "cards-edit", status: .unprocessableContent
        )
        .response(from: request, context: context)
    }

    @Sendable func card(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let board = try await stores.domain.board(of: try context.uuid("id", "Round"))
        let hole = request.uri.queryParameters.get("hole").flatMap { Int($0) }
        let cardID = try context.uuid("cardID", "Card")
        guard var page = CardPage(board: board, cardID: cardID, hole: hole, viewer: context.identity) else {
            throw StoreError.notFound("Card")
        }
        page.state = try CardStateResponse(board: board, cardID: cardID, viewer: context.identity, at: Date())?.json()
        return renderer.page(page, "card")
    }

    /// Saves the hole for every player of the card, then shows the card's next hole.
    @Sendable func saveHole(_ request: Request, context: AppRequestContext) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        let cardID = try context.uuid("cardID", "Card")
        guard let hole = context.parameters.get("hole", as: Int.self) else { throw StoreError.notFound("Hole") }
        let form = try await request.decode(as: CardHoleForm.self, context: context)
        var values: [String: String] = [:]
        var errors = FieldErrors()
        var entries: [DomainStore.CardEntry] = []
        for (key, text) in form.strokes ?? [:] {
            values["strokes.\(key)"] = text
            let penaltyText = form.penalties?[key] ?? ""
            values["penalties.\(key)"] = penaltyText
            let mulliganText = form.mulligans?[key] ?? ""
            values["mulligans.\(key)"] = mulliganText
            // Left blank: a hole this player missed (they joined the card later) is not entered.
            guard let player = UUID(text: key), !text.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            do {
                let submission = try ScoreSubmission.parse(
                    id: nil, playerID: key, hole: String(hole), strokes: text, supersedes: nil, penalties: penaltyText, mulligans: mulliganText)
                entries.append(
                    DomainStore.CardEntry(
                        playerID: player, strokes: submission.strokes, penalties: submission.penalties, mulligans: submission.mulligans))
            } catch {
                errors.add("strokes.\(key)", error.summary)
            }
        }
        do {
            try errors.throwIfAny()
            let snapshot = try await stores.domain.recordCardHole(entries, hole: hole, card: cardID, in: roundID, by: context.identity)
            let card = snapshot.round.cards.first { $0.id == cardID }
            let next = card?.hole(after: hole, of: snapshot.course.holes.map(\.number))
            let target = "/rounds/\(Format.id(roundID))/cards/\(Format.id(cardID))?hole=\(next ?? hole)\(next == nil ? "#sign" : "")"
            return .redirect(to: target, type: .normal)
        } catch ScoreRejection.notYours {
            throw ScoreRejection.notYours
        } catch let rejection as ScoreRejection {
            return try await refused(
                roundID: roundID, cardID: cardID, hole: hole, values: values, errors: RoundPagesController.fieldErrors(rejection),
                status: rejection.status, request: request, context: context)
        } catch let errors as FieldErrors {
            return try await refused(
                roundID: roundID, cardID: cardID, hole: hole, values: values, errors: errors, status: .unprocessableContent, request: request,
                context: context)
        }
    }

    private func refused(
        roundID: UUID, cardID: UUID, hole: Int, values: [String: String], errors: FieldErrors, status: HTTPResponse.Status,
        request: Request, context: AppRequestContext
    ) async throws -> Response {
        let board = try await stores.domain.board(of: roundID)
        var form = FormState(values: values, errors: errors)
        form.message = errors.summary
        guard let page = CardPage(board: board, cardID: cardID, hole: hole, viewer: context.identity, form: form) else {
            throw StoreError.notFound("Card")
        }
        return try renderer.page(page, "card", status: status).response(from: request, context: context)
    }

    @Sendable func sign(_ request: Request, context: AppRequestContext) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        let form = try await request.decode(as: SignForm.self, context: context)
        guard let player = form.playerID.flatMap(UUID.init(text:)) else { throw FieldErrors("playerID", "Choose who signs.") }
        let back =
            form.cardID.flatMap(UUID.init(text:)).map { "/rounds/\(Format.id(roundID))/cards/\(Format.id($0))#sign" }
            ?? "/rounds/\(Format.id(roundID))"
        do {
            _ = try await stores.domain.sign(playerID: player, in: roundID, by: context.identity)
            return .redirect(to: back, type: .normal)
        } catch LeagueRejection.conflict(let message) {
            let board = try await stores.domain.board(of: roundID)
            var state = FormState()
            state.message = message
            if let cardID = form.cardID.flatMap(UUID.init(text:)),
                let page = CardPage(board: board, cardID: cardID, hole: nil, viewer: context.identity, form: state)
            {
                return try renderer.page(page, "card", status: .conflict).response(from: request, context: context)
            }
            return try renderer.page(RoundPage(board: board, form: state), "round", status: .conflict).response(from: request, context: context)
        }
    }
}

extension ScoreRejection {
    var status: HTTPResponse.Status {
        switch self {
        case .invalid: .unprocessableContent
        case .conflict, .signed: .conflict
        case .notYours: .forbidden
        }
    }
}
