import Foundation

/// The books as a treasurer reads them: each line with its fund, what it was, who recorded
/// it on which device, and the running balance of everything listed. The API, the money
/// page and the CSV all read these rows.
public struct LedgerTable: Sendable {
    public struct Row: Hashable, Sendable {
        public var line: ClubBooks.Line
        public var fundName: String
        public var eventName: String?
        public var playerName: String?
        public var recordedByName: String?
        public var balance: Int
        public var at: Date { Date(timeIntervalSince1970: Double(line.at.wallMillis) / 1000) }
        public var device: UUID { line.at.deviceID }
    }

    public var rows: [Row]
    public var funds: [(fund: Fund, name: String, balance: Int)]
    public var total: Int { rows.last?.balance ?? 0 }

    /// `books`' lines for which `keep` holds (a season's nights and pots, or all), with names.
    public init(
        _ books: ClubBooks, names: [UUID: String], eventNames: [UUID: String], keep: (ClubBooks.Line) -> Bool = { _ in true }
    ) {
        var running = 0
        var balances: [Fund: Int] = [:]
        rows = books.lines.filter(keep).map { line in
            running += line.cents
            balances[line.fund, default: 0] += line.cents
            return Row(
                line: line, fundName: Self.name(of: line.fund, books: books), eventName: line.eventID.flatMap { eventNames[$0] },
                playerName: line.playerID.flatMap { names[$0] }, recordedByName: line.recordedBy.flatMap { names[$0] }, balance: running)
        }
        funds = balances.keys.sorted().map { ($0, Self.name(of: $0, books: books), balances[$0] ?? 0) }
    }

    public static func name(of fund: Fund, books: ClubBooks) -> String {
        switch fund {
        case .purse: "Purse"
        case .club: "Club"
        case .pot(let id): books.pots[id]?.name ?? "Pot \(id.lowercasedText.prefix(8))"
        }
    }

    /// The CSV: amounts in cents and in the currency's units, so a spreadsheet sums either.
    public func csv(currency: String) -> [[String]] {
        var table = [
            [
                "When (UTC)", "Fund", "Kind", "Night", "Player", "Note", "Amount (cents)", "Amount (\(currency))", "Balance (cents)", "Recorded by",
                "Device", "Entry",
            ]
        ]
        let formatter = ISO8601DateFormatter()
        for row in rows {
            table.append([
                formatter.string(from: row.at), row.fundName, row.line.kind.rawValue, row.eventName ?? "", row.playerName ?? "", row.line.note,
                String(row.line.cents), Money.plain(row.line.cents), String(row.balance), row.recordedByName ?? "",
                row.device.lowercasedText, row.line.sourceID.lowercasedText,
            ])
        }
        return table
    }
}
