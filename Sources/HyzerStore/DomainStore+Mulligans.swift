import Foundation
import GRDB
import HyzerCore

// Mulligan nights: a coach sells mulligans to a player; what each has left is derived.
extension DomainStore {
    /// Records a sale of `count` mulligans (negative: given back) to `playerID` for `cents`
    /// (nil: the round's price each), and answers the player's account after it.
    public func sellMulligans(_ count: Int, cents: Int?, to playerID: UUID, in roundID: UUID, by actor: UUID?) async throws -> MulliganAccount {
        let stamp = tick()
        let moment = now()
        let written = try await write(queueing: { [(.mulliganSale, $0.sale.id.text, $0.sale.recordedAt)] }) {
            db -> (sale: MulliganSale, account: MulliganAccount) in
            let snapshot = try Self.snapshot(roundID, db)
            let round = snapshot.round
            guard let rule = round.mulligans else {
                throw LeagueRejection.conflict("This round has no mulligans: a coach sets them when the round is made.")
            }
            let player = try Self.canonicalID(playerID, db)
            guard round.playerIDs.contains(player) else {
                throw LeagueRejection.invalid(FieldErrors("playerID", "That player is not in this round."))
            }
            let name = snapshot.playerName(player) ?? "This player"
            if round.archived { throw LeagueRejection.conflict("This round was removed: it sells no more mulligans.") }
            if round.status == .completed { throw LeagueRejection.conflict("This round is completed: it sells no more mulligans.") }
            if round.withdrawn.contains(player) { throw LeagueRejection.conflict("\(name) has withdrawn from this round: no mulligans for them.") }
            if count > 0 && rule.forSale == 0 { throw LeagueRejection.conflict("This round gives mulligans but sells none.") }
            let scores = CurrentScores(events: snapshot.events)
            let account = MulliganBook.account(player, rule: rule, sales: snapshot.mulliganSales, scores: scores)
            if let refusal = MulliganBook.refusal(selling: count, to: account, rule: rule, name: name) {
                throw LeagueRejection.conflict(refusal)
            }
            let sale = MulliganSale(
                id: .random(), roundID: roundID, playerID: player, count: count, cents: cents ?? count * rule.priceCents, recordedBy: actor,
                recordedAt: stamp)
            try MulliganSaleRecord(sale).insert(db)
            try db.execute(sql: "UPDATE rounds SET version = version + 1 WHERE id = ?", arguments: [roundID.text])
            let what = count > 0 ? "sold \(count) mulligan\(count == 1 ? "" : "s") to \(name)" : "gave back \(-count) of \(name)'s mulligans"
            try Self.audit(.mulliganSale, sale.id, actor: actor, at: moment, what, db)
            return (sale, MulliganBook.account(player, rule: rule, sales: snapshot.mulliganSales + [sale], scores: scores))
        }
        return written.account
    }
}
