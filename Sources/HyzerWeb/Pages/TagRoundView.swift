import Foundation
import HyzerCore

/// A tag round's tags on its page: once completed, each player's incoming and outgoing tag
/// in finishing order; before, the tags in play.
struct TagRoundView: Sendable {
    struct Row: Sendable {
        var displayName: String
        var incoming: String
        var outgoing: String
        var changed: Bool
    }

    var poolName: String
    var poolLink: String
    var completed: Bool
    var rows: [Row]
    var hasRows: Bool

    init(ledger: BagTags.Ledger, round: Round, names: [UUID: String]) {
        poolName = ledger.pool.name
        poolLink = "/tags/\(Format.id(ledger.pool.id))"
        completed = round.status == .completed
        if completed, let exchange = ledger.exchange(in: round.id) {
            rows = exchange.movements.map {
                Row(
                    displayName: names[$0.playerID] ?? "Unknown player", incoming: $0.from.map { "#\($0)" } ?? "",
                    outgoing: $0.to.map { "#\($0)" } ?? "", changed: $0.from != $0.to)
            }
        } else {
            let held = Dictionary(ledger.holders.map { ($0.playerID, $0.tag) }, uniquingKeysWith: { first, _ in first })
            rows = round.playerIDs.compactMap { id in held[id].map { (id, $0) } }.sorted { $0.1 < $1.1 }.map {
                Row(displayName: names[$0.0] ?? "Unknown player", incoming: "#\($0.1)", outgoing: "", changed: false)
            }
        }
        hasRows = !rows.isEmpty
    }
}
