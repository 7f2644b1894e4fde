import Foundation
import HyzerCore

/// `/seasons/{id}/fees`: a season's entry fees, their split into funds and the payout table,
/// as a form. It writes the same `FeePlan` as `PATCH /api/v1/seasons/{id}` with `"fees"`.
struct SeasonFeesPage: Sendable {
    struct Fee: Sendable {
        var field: String
        var label: String
        var value: String
    }

    struct Share: Sendable {
        var index: Int
        var funds: [Option]
        var amount: String
        var percent: String
    }

    static let shareRows = 5

    var title: String
    var id: String
    var meta: String
    var fees: [Fee]
    var shares: [Share]
    var percentages: String
    var topThird: Bool
    var winnerTakesAllUnder: String
    var currency: String
    var form: FormState
    var done: String?

    init(_ season: Season, pots: [Pot], currency: String, form: FormState = FormState()) {
        title = "Fees: \(season.name)"
        id = Format.id(season.id)
        self.currency = currency
        meta =
            "Each fee is split when it is paid: fixed amounts first, then percentages of the rest (adding up to 100). "
            + "A change applies to fees paid from then on; nights already paid keep their split."
        let plan = season.fees
        let divisions = season.divisions.isEmpty ? ["*"] : season.divisions + ["*"]
        fees = divisions.map { division in
            let field = "fee[\(division)]"
            let current = plan?.entry[division].map(Money.plain) ?? ""
            return Fee(
                field: field, label: division == "*" ? (season.divisions.isEmpty ? "Entry fee" : "Any other division") : "\(division) entry fee",
                value: form.values[field] ?? current)
        }
        let funds: [(String, String)] = [("", "—"), ("purse", "Purse (paid by place)"), ("club", "Club")] + pots.map { (Format.id($0.id), $0.name) }
        let current = plan?.split ?? [FeePlan.Share(fund: "purse", percent: 100)]
        shares = (0..<Self.shareRows).map { index in
            let share = index < current.count ? current[index] : nil
            let chosen = form.values["fund[row\(index)]"] ?? share?.fund ?? ""
            return Share(
                index: index, funds: funds.map { Option(value: $0.0, label: $0.1, selected: $0.0 == chosen) },
                amount: form.values["amount[row\(index)]"] ?? share?.cents.map(Money.plain) ?? "",
                percent: form.values["percent[row\(index)]"] ?? share?.percent.map(String.init) ?? "")
        }
        percentages = form.values["percentages"] ?? plan?.payout.percentages?.map(String.init).joined(separator: ", ") ?? "50, 30, 20"
        topThird = form.values["table"].map { $0 == "topThird" } ?? (plan?.payout.topThird == true)
        winnerTakesAllUnder = form.values["winnerTakesAllUnder"] ?? plan?.payout.winnerTakesAllUnder.map(String.init) ?? ""
        self.form = form
    }
}
