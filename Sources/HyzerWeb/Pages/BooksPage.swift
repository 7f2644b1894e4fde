import Foundation
import HyzerCore

/// The club's books (`/money`): its pots and their balances, each fund's balance, and every
/// line with its running balance, or one season's part of them.
struct BooksPage: Sendable {
    struct PotItem: Sendable {
        var id: String
        var name: String
        var kind: String
        var balance: String
        var cap: String?
    }

    struct FundItem: Sendable {
        var name: String
        var balance: String
    }

    struct Row: Sendable {
        var at: String
        var fund: String
        var kind: String
        var night: String
        var player: String
        var note: String
        var amount: String
        var balance: String
        var by: String
        var device: String
    }

    var title = "Money"
    var meta: String
    var done: String?
    var error: String?
    var pots: [PotItem]
    var hasPots: Bool
    var funds: [FundItem]
    /// A season's view adds up its own lines: each fund's net flow that season, not its balance.
    var fundsHeading: String
    var total: String
    var rows: [Row]
    var hasRows: Bool
    var shown: String?
    var seasons: [Option]
    var potChoices: [Option]
    var kinds: [Option]
    var csvLink: String
    var form: FormState

    static let maxRows = 500

    init(table: LedgerTable, books: ClubBooks, pots: [Pot], seasons: [Season], seasonID: UUID?, currency: String, form: FormState = FormState()) {
        func amount(_ cents: Int) -> String { Money.format(cents, currency: currency) }
        let season = seasons.first { $0.id == seasonID }
        meta =
            (season.map { "\($0.name): its nights and its pots. " } ?? "Every night and pot of the club. ")
            + "Amounts in \(currency); every line names who recorded it on which device."
        self.pots = pots.map {
            PotItem(
                id: Format.id($0.id), name: $0.name, kind: $0.kind.label, balance: amount(books.balance(of: .pot($0.id))),
                cap: $0.capCents.map { amount($0) })
        }
        hasPots = !pots.isEmpty
        funds = table.funds.map { FundItem(name: $0.name, balance: amount($0.balance)) }
        fundsHeading = season == nil ? "Balances" : "This season's net, by fund"
        total = amount(table.total)
        // Newest first, as a treasurer reads back; the CSV has them all, oldest first.
        rows = table.rows.suffix(Self.maxRows).reversed().map { row in
            Row(
                at: Format.date(row.at), fund: row.fundName, kind: row.line.kind.rawValue, night: row.eventName ?? "", player: row.playerName ?? "",
                note: row.line.note, amount: amount(row.line.cents), balance: amount(row.balance), by: row.recordedByName ?? "",
                device: String(row.device.lowercasedText.prefix(8)))
        }
        hasRows = !rows.isEmpty
        shown = table.rows.count > Self.maxRows ? "The newest \(Self.maxRows) of \(table.rows.count) lines; the CSV has them all." : nil
        self.seasons =
            [Option(value: "", label: "All seasons", selected: seasonID == nil)]
            + seasons.map { Option(value: Format.id($0.id), label: $0.name, selected: $0.id == seasonID) }
        potChoices =
            [Option(value: "", label: "None: the club", selected: true)]
            + pots.map { Option(value: Format.id($0.id), label: $0.name, selected: false) }
        kinds = Pot.Kind.allCases.map { Option(value: $0.rawValue, label: $0.label, selected: $0 == .ace) }
        csvLink = "/money/ledger.csv" + (seasonID.map { "?seasonID=\(Format.id($0))" } ?? "")
        self.form = form
    }
}

/// One pot: its balance and ledger; a coach adds money by hand (or corrects with a negative).
struct PotPage: Sendable {
    struct Row: Sendable {
        var at: String
        var kind: String
        var amount: String
        var night: String
        var player: String
        var note: String
        var by: String
    }

    var title: String
    var id: String
    var meta: String
    var balance: String
    var done: String?
    var error: String?
    var rows: [Row]
    var hasRows: Bool
    var nights: [Option]

    init(_ pot: Pot, books: ClubBooks, names: [UUID: String], eventNames: [UUID: String], currency: String, audit: Bool, nights: [Event]) {
        func amount(_ cents: Int) -> String { Money.format(cents, currency: currency) }
        title = pot.name
        id = Format.id(pot.id)
        var parts = [pot.kind.label]
        if let cap = pot.capCents {
            parts.append("capped at \(amount(cap))")
            parts.append("past it to \(pot.overflowPotID.flatMap { books.pots[$0]?.name } ?? "the club")")
        }
        meta = parts.joined(separator: ", ")
        balance = amount(books.balance(of: .pot(pot.id)))
        rows = books.lines(of: .pot(pot.id)).reversed().map { line in
            Row(
                at: Format.date(Date(timeIntervalSince1970: Double(line.at.wallMillis) / 1000)), kind: line.kind.potKind,
                amount: amount(line.cents), night: line.eventID.flatMap { eventNames[$0] } ?? "", player: line.playerID.flatMap { names[$0] } ?? "",
                // A coach's note is the books' own; the public sees amounts and winners.
                note: audit ? line.note : "", by: audit ? line.recordedBy.flatMap { names[$0] } ?? "" : "")
        }
        hasRows = !rows.isEmpty
        self.nights =
            [Option(value: "", label: "No night", selected: true)] + nights.map { Option(value: Format.id($0.id), label: $0.name, selected: false) }
    }
}
