import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// `POST /api/v1/rounds/{id}/mulligans`: a coach sells a player mulligans on a mulligan night
/// (a negative count gives some back). Each player's mulligans are in `GET /api/v1/rounds/{id}`.
struct MulligansAPIController {
    let stores: Stores

    func addRoutes(to api: RouteGroups) {
        api.coach.post("/rounds/:id/mulligans", use: sell)
    }

    @Sendable func sell(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<MulliganAccountResponse> {
        let roundID = try context.uuid("id", "Round")
        let body = try await request.decodeBody(MulliganSaleBody.self, context: context)
        let (player, count, cents) = try body.validated()
        let account = try await stores.domain.sellMulligans(count, cents: cents, to: player, in: roundID, by: context.identity?.playerID)
        return EditedResponse(status: .created, response: MulliganAccountResponse(account: account))
    }
}

/// One player's mulligans, as in the round's `mulligans.players`.
struct MulliganAccountResponse: ResponseEncodable {
    var account: MulliganAccount

    func encode(to encoder: any Encoder) throws { try account.encode(to: encoder) }
}

struct MulliganSaleBody: Decodable {
    var playerID: String
    var count: Int
    var cents: Int?

    func validated() throws(FieldErrors) -> (player: UUID, count: Int, cents: Int?) {
        var errors = FieldErrors()
        let player = UUID(text: playerID)
        if player == nil { errors.add("playerID", "That is not a player id.") }
        if !MulliganSale.countRange.contains(count) || count == 0 {
            errors.add(
                "count",
                "Sell from 1 to \(MulliganSale.countRange.upperBound) mulligans, or give back up to \(-MulliganSale.countRange.lowerBound) with a negative count."
            )
        }
        if let cents, !(-Money.maxCents...Money.maxCents).contains(cents) {
            errors.add("cents", "The amount must be at most \(Money.maxCents) cents either way.")
        } else if let cents, cents != 0, (cents < 0) != (count < 0) {
            errors.add("cents", "A sale is paid for (cents from 0 up) and a give-back refunded (cents from 0 down).")
        }
        try errors.throwIfAny()
        return (player ?? UUID(), count, cents)
    }
}
