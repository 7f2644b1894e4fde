import Foundation
import HyzerCore

/// A night's money for its coaches: in by fund, each division's purse and payouts by place
/// (proposed, adjusted, paid), the aces and the ace pot's payout to confirm, the CTP pots to
/// pay or roll over, and what is left.
struct NightMoneyPage: Sendable {
    struct Line: Sendable {
        var label: String
        var amount: String
    }

    struct Payout: Sendable {
        var playerID: String
        var name: String
        var division: String
        var place: String
        var proposed: String
        var amount: String
        /// The amount as the form edits it.
        var plainAmount: String
        var status: String
        var paid: Bool
        var adjusted: Bool
        /// The form's choice starts at the payout's own state, so recording an amount never
        /// quietly un-pays it.
        var methods: [Option]
    }

    struct Purse: Sendable {
        var division: String
        var amount: String
        var field: Int
        var paidOut: String
        var left: String
    }

    struct Ace: Sendable {
        var name: String
        var hole: Int
        var eligible: Bool
        var roundLink: String
    }

    struct PotItem: Sendable {
        var id: String
        var name: String
        var kind: String
        var balance: String
        var isCTP: Bool
        /// Already paid or rolled over tonight: what each winner took, or that it rolled over.
        var decision: String?
    }

    /// A CTP hole's winner choice on the pot's form.
    struct CTPHole: Sendable {
        var number: Int
    }

    /// Up to four CTP holes a night, each its own winner.
    static let ctpHoles = (1...4).map { CTPHole(number: $0) }

    var title: String
    var id: String
    /// The night's id again, for forms inside a pot's row (whose own `id` is the pot's).
    var eventID: String
    var meta: String
    var done: String?
    var error: String?
    var incoming: [Line]
    var hasIncoming: Bool
    var purses: [Purse]
    var payouts: [Payout]
    var hasPayouts: Bool
    var aces: [Ace]
    var hasAces: Bool
    /// The confirm form of the ace pot's payout: one hidden input per eligible ace.
    var acePotID: String?
    var acePayees: [String]
    var acePayout: String?
    var pots: [PotItem]
    var players: [Option]
    var ctpHoles = Self.ctpHoles
    var rule: String
    var final: Bool

    init(_ money: NightMoney, event: Event, names: [UUID: String], pots: [Pot], currency: String, checkedIn: [UUID]) {
        func amount(_ cents: Int) -> String { Money.format(cents, currency: currency) }
        let potNames = Dictionary(pots.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        title = "Money: \(event.name)"
        id = Format.id(event.id)
        eventID = id
        meta =
            money.plan == nil
            ? "This night's season sets no fees: payments are recorded without amounts. Set them on the season's fees page."
            : "Amounts in \(currency). Entry: "
                + (money.plan?.entry.sorted { $0.key < $1.key }.map { "\($0.key == "*" ? "others" : $0.key) \(amount($0.value))" }.joined(
                    separator: ", ") ?? "")
        incoming = money.incoming.map { fund in
            let name =
                switch Fund(text: fund.fund) {
                case .purse: "Purse"
                case .club: "Club"
                case .pot(let id): potNames[id] ?? "A pot"
                case nil: fund.fund
                }
            return Line(label: name, amount: amount(fund.cents))
        }
        hasIncoming = !incoming.isEmpty
        purses = money.purses.map {
            Purse(
                division: $0.division.isEmpty ? "Open" : $0.division, amount: amount($0.cents), field: $0.field, paidOut: amount($0.paidOut),
                left: amount($0.left))
        }
        payouts = money.payouts.map { payout in
            Payout(
                playerID: Format.id(payout.playerID), name: names[payout.playerID] ?? "A player",
                division: payout.division.isEmpty ? "Open" : payout.division, place: Ordinal.text(payout.place),
                proposed: amount(payout.proposedCents),
                amount: amount(payout.cents), plainAmount: Money.plain(payout.cents),
                status: payout.method.map { "Paid (\($0.rawValue))" } ?? "Not paid", paid: payout.paid,
                adjusted: payout.cents != payout.proposedCents,
                methods: [("", "Not yet (adjust)"), ("cash", "Cash"), ("credit", "Credit")].map {
                    Option(value: $0.0, label: $0.1, selected: $0.0 == (payout.method?.rawValue ?? ""))
                })
        }
        hasPayouts = !payouts.isEmpty
        aces = money.aces.map {
            Ace(name: names[$0.playerID] ?? "A player", hole: $0.hole, eligible: $0.eligible, roundLink: "/rounds/\(Format.id($0.roundID))")
        }
        hasAces = !aces.isEmpty
        let eligible = money.aces.filter(\.eligible)
        acePotID = eligible.isEmpty || money.aceShare == 0 ? nil : money.acePotID.map(Format.id)
        acePayees = eligible.map { Format.id($0.playerID) }
        acePayout =
            acePotID == nil
            ? nil
            : "\(eligible.count == 1 ? "1 ace" : "\(eligible.count) aces") × \(amount(money.aceShare)) from \(money.acePotID.flatMap { potNames[$0] } ?? "the ace pot")"
        self.pots = pots.filter { pot in money.pots.contains { $0.potID == pot.id } }.map { pot -> PotItem in
            let decision = money.decided[pot.id].map { paid in
                paid.isEmpty
                    ? "Rolled over tonight."
                    : "Paid tonight: " + paid.map { "\(names[$0.playerID] ?? "a player") \(amount($0.cents))" }.joined(separator: ", ") + "."
            }
            return PotItem(
                id: Format.id(pot.id), name: pot.name, kind: pot.kind.label,
                balance: amount(money.pots.first { $0.potID == pot.id }?.balanceCents ?? 0), isCTP: pot.kind == .ctp && decision == nil,
                decision: decision)
        }
        players = checkedIn.map { Option(value: Format.id($0), label: names[$0] ?? "A player", selected: false) }.sorted { $0.label < $1.label }
        rule =
            "The purse of each division is paid by place: \(money.table?.words ?? "all to first"). Only players who paid into it are placed. "
            + "Tied players split the places they cover evenly; cents that do not divide, and places nobody fills, stay with the club."
        final = money.final
    }
}
