import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

// Rounds: renaming, late arrivals, withdrawals, completion and reopening.
extension DirectorPagesController {
    @Sendable func editRound(_ request: Request, context: AppRequestContext) async throws -> HTML {
        try await roundPage(try context.uuid("id", "Round"), FormState())
    }

    func roundPage(_ id: UUID, _ form: FormState, status: HTTPResponse.Status = .ok) async throws -> HTML {
        renderer.page(
            RoundEditPage(snapshot: try await stores.domain.snapshot(of: id), players: try await stores.domain.players(), form: form), "round-edit",
            status: status)
    }

    /// Runs a round change and comes back to the edit page with a notice, or shows the page
    /// again with the reason.
    func changeRound(
        _ request: Request, context: AppRequestContext, values: [String: String], notice key: Notice,
        _ change: (UUID) async throws -> Void
    ) async throws -> Response {
        let id = try context.uuid("id", "Round")
        do {
            try await change(id)
            return notice("/rounds/\(Format.id(id))/edit", key)
        } catch let errors as FieldErrors {
            return try await roundPage(id, FormState(values: values, errors: errors), status: .unprocessableContent).response(
                from: request, context: context)
        } catch let rejection as LeagueRejection {
            return try await roundPage(id, FormState(values: values, rejection: rejection), status: rejection.status).response(
                from: request, context: context)
        }
    }

    @Sendable func renameRound(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: RenameForm.self, context: context)
        return try await changeRound(request, context: context, values: ["name": form.name ?? ""], notice: .saved) { id in
            _ = try await stores.domain.renameRound(id, to: try Round.validatedName(form.name), actor: context.identity?.playerID)
        }
    }

    @Sendable func addPlayer(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: LateArrivalForm.self, context: context)
        return try await changeRound(request, context: context, values: form.values, notice: .added) { id in
            guard let player = form.playerID.flatMap(UUID.init(text:)) else { throw FieldErrors("playerID", "Choose the player who arrived.") }
            let card = (form.cardID ?? "").isEmpty ? nil : form.cardID.flatMap(UUID.init(text:))
            _ = try await stores.domain.addPlayer(player, division: form.division, card: card, to: id, actor: context.identity?.playerID)
        }
    }

    /// Withdrawing asks first (one tap among a list of Withdraw buttons is easy to miss).
    @Sendable func withdraw(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: ConfirmForm.self, context: context)
        let player = try context.uuid("playerID", "Player")
        guard form.confirm == "yes" else {
            let snapshot = try await stores.domain.snapshot(of: try context.uuid("id", "Round"))
            guard snapshot.round.playerIDs.contains(player), let name = snapshot.playerNames[player] else { throw StoreError.notFound("Player") }
            let round = snapshot.round
            let holes = Set(snapshot.events.filter { $0.playerID == player }.map(\.hole)).count
            let path = "/rounds/\(Format.id(round.id))"
            var page = RemoveConfirmPage(
                title: "Withdraw \(name)?", noun: "player", name: name, action: "\(path)/players/\(Format.id(player))/withdraw",
                cancel: "\(path)/edit",
                outcome: holes == 0
                    ? "\(name) has no scores in \(round.name): they leave the round and its card."
                    : "\(name) stays on the boards as did not finish (DNF), with the \(holes == 1 ? "hole" : "\(holes) holes") scored; their card stops taking scores for them.",
                kept: "A coach can add them again from Edit round: their scores count again.")
            page.heading = "Withdraw \(name) from \(round.name)?"
            page.confirmLabel = "Yes, withdraw \(name)"
            return try renderer.page(page, "remove-confirm").response(from: request, context: context)
        }
        return try await changeRound(request, context: context, values: [:], notice: .withdrawn) { id in
            _ = try await stores.domain.withdraw(player, from: id, actor: context.identity?.playerID)
        }
    }

    /// Only an active round is completed: any other goes back to its page, which says what it is.
    @Sendable func confirmCompletion(_ request: Request, context: AppRequestContext) async throws -> Response {
        let board = try await stores.domain.board(of: try context.uuid("id", "Round"))
        guard board.snapshot.round.status == .active else { return .redirect(to: "/rounds/\(Format.id(board.snapshot.round.id))", type: .normal) }
        return try renderer.page(CompleteRoundPage(board: board), "round-complete").response(from: request, context: context)
    }

    @Sendable func reopen(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.uuid("id", "Round")
        do {
            _ = try await stores.domain.reopen(id, actor: context.identity?.playerID)
        } catch let rejection as LeagueRejection {
            throw Problem(status: .conflict, title: "Not reopened", detail: rejection.message)
        }
        return .redirect(to: "/rounds/\(Format.id(id))", type: .normal)
    }
}
