import Foundation

/// The club's books: every fee payment and money entry in clock order, turned into lines of
/// funds (the purse, the club, each pot) with the balances they add up to. A pure function
/// of synced, append-only records, so every device keeps the same books to the cent.
///
/// - A night's fee for a player counts as its latest payment: recorded again (another desk,
///   or paid → not paid), the difference is a new line, so nothing is doubled.
/// - Into a capped pot, what passes the cap flows on to its overflow pot (or the club).
/// - A pot's payouts and rollovers for a night are one decision: the latest counts, an
///   earlier one (another device at the same time) is kept but superseded.
/// - A night's purse payout to a player is its latest entry; money leaves the purse once
///   it is marked paid.
public struct ClubBooks: Sendable {
    public enum LineKind: String, Sendable, Hashable {
        case fee, contribution, overflow, payout, rollover, purse, settle

        /// A pot's ledger names its lines as the API does.
        public var potKind: String {
            switch self {
            case .fee, .contribution: "in"
            case .payout, .purse, .settle: "out"
            case .overflow: "overflow"
            case .rollover: "rollover"
            }
        }
    }

    public struct Line: Hashable, Sendable {
        public var at: HLC
        public var fund: Fund
        /// Positive into the fund, negative out of it.
        public var cents: Int
        public var kind: LineKind
        public var eventID: UUID?
        public var playerID: UUID?
        public var recordedBy: UUID?
        /// The fee payment or money entry this line comes from.
        public var sourceID: UUID
        public var note: String
    }

    public var lines: [Line]
    public var pots: [UUID: Pot]
    /// Each night's latest fee payment per player, by `CheckIn.recordID`.
    public var payments: [String: FeePayment]
    /// Each night's latest purse entry per player, by `CheckIn.recordID`.
    public var purseEntries: [String: MoneyEntry]
    /// Pot decisions a later one replaced.
    public var superseded: Set<UUID>
    /// What each night's division purse left moved to the club, by "eventID/division".
    public var settled: [String: Int] = [:]

    public static func settleKey(_ eventID: UUID, _ division: String) -> String { "\(eventID.lowercasedText)/\(division)" }

    /// Whether a night's pot decision is already in the books (a second is refused on this
    /// device; two made apart converge on the later).
    public func decided(_ potID: UUID, at eventID: UUID) -> Bool {
        // A rollover into this pot (cents in) is another pot's decision.
        lines.contains { $0.fund == .pot(potID) && $0.eventID == eventID && ($0.kind == .payout || $0.kind == .rollover) && $0.cents <= 0 }
    }

    public var total: Int { lines.reduce(0) { $0 + $1.cents } }

    public func balance(of fund: Fund) -> Int { lines.reduce(0) { $0 + ($1.fund == fund ? $1.cents : 0) } }

    public var balances: [Fund: Int] { lines.reduce(into: [:]) { $0[$1.fund, default: 0] += $1.cents } }

    public func lines(of fund: Fund) -> [Line] { lines.filter { $0.fund == fund } }

    /// The counted pot payouts of a night.
    public func potPayouts(of eventID: UUID) -> [Line] { lines.filter { $0.kind == .payout && $0.eventID == eventID } }

    public static func derive(pots: [Pot], entries: [MoneyEntry], payments: [FeePayment]) -> ClubBooks {
        let potsByID = Dictionary(pots.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        enum Item {
            case payment(FeePayment)
            case entry(MoneyEntry)
            var at: HLC {
                switch self {
                case .payment(let p): p.recordedAt
                case .entry(let e): e.recordedAt
                }
            }
        }
        let items = (payments.map(Item.payment) + entries.map(Item.entry)).sorted { $0.at < $1.at }

        // One decision per pot and night: the latest batch.
        var latestBatch: [String: (HLC, UUID)] = [:]
        for entry in entries where entry.kind == .potPayout || entry.kind == .rollover {
            guard let pot = entry.potID, let event = entry.eventID, let batch = entry.batchID else { continue }
            let key = "\(pot.lowercasedText)/\(event.lowercasedText)"
            if let known = latestBatch[key], known.0 >= entry.recordedAt { continue }
            latestBatch[key] = (entry.recordedAt, batch)
        }

        var books = ClubBooks(lines: [], pots: potsByID, payments: [:], purseEntries: [:], superseded: [])
        var balances: [Fund: Int] = [:]
        func add(_ line: Line) {
            guard line.cents != 0 else { return }
            books.lines.append(line)
            balances[line.fund, default: 0] += line.cents
        }
        /// Into `fund`; past a pot's cap, on to its overflow (a loop, which validation
        /// refuses, ends at the club). Returns where the money came to rest.
        @discardableResult
        func credit(_ fund: Fund, _ cents: Int, _ template: Line, visited: Set<UUID> = []) -> [Fund: Int] {
            var line = template
            line.fund = fund
            line.cents = cents
            guard cents > 0, let id = fund.potID, let cap = potsByID[id]?.capCents else {
                add(line)
                return [fund: cents]
            }
            let room = max(0, cap - balances[fund, default: 0])
            add(line)
            let over = cents - min(cents, room)
            guard over > 0 else { return [fund: cents] }
            let next: Fund = potsByID[id]?.overflowPotID.flatMap { visited.contains($0) ? nil : Fund.pot($0) } ?? .club
            var out = template
            out.kind = .overflow
            out.note = "over the cap of \(potsByID[id]?.name ?? "the pot")"
            out.fund = fund
            out.cents = -over
            add(out)
            return credit(next, over, out, visited: visited.union([id])).merging([fund: cents - over], uniquingKeysWith: +)
        }
        // Where each night's fee of each player came to rest (past caps), so taking it back
        // takes it from there.
        var placed: [String: [Fund: Int]] = [:]

        for item in items {
            switch item {
            case .payment(let payment):
                let key = CheckIn.recordID(event: payment.eventID, player: payment.playerID)
                let before = books.payments[key].map(Self.funds) ?? [:]
                books.payments[key] = payment
                let after = Self.funds(payment)
                // Recorded again as it was (another desk): nothing moves.
                guard after != before else { continue }
                var template = Line(
                    at: payment.recordedAt, fund: .club, cents: 0, kind: .fee, eventID: payment.eventID, playerID: payment.playerID,
                    recordedBy: payment.recordedBy, sourceID: payment.id, note: "entry fee taken back")
                for (fund, cents) in (placed[key] ?? [:]).sorted(by: { $0.key < $1.key }) { add(with(template, fund: fund, cents: -cents)) }
                template.note = "entry fee"
                var rest: [Fund: Int] = [:]
                for fund in after.keys.sorted() { rest.merge(credit(fund, after[fund] ?? 0, template), uniquingKeysWith: +) }
                placed[key] = rest
            case .entry(let entry):
                let template = Line(
                    at: entry.recordedAt, fund: .club, cents: 0, kind: .contribution, eventID: entry.eventID, playerID: entry.playerID,
                    recordedBy: entry.recordedBy, sourceID: entry.id, note: entry.note ?? "")
                switch entry.kind {
                case .contribution:
                    guard let pot = entry.potID else { continue }
                    if entry.cents > 0 { credit(.pot(pot), entry.cents, template) } else { add(with(template, fund: .pot(pot), cents: entry.cents)) }
                case .potPayout, .rollover:
                    guard let pot = entry.potID, let event = entry.eventID else { continue }
                    let key = "\(pot.lowercasedText)/\(event.lowercasedText)"
                    guard latestBatch[key]?.1 == entry.batchID else {
                        books.superseded.insert(entry.id)
                        continue
                    }
                    var line = template
                    if entry.kind == .potPayout {
                        line.kind = .payout
                        add(with(line, fund: .pot(pot), cents: -entry.cents))
                    } else {
                        line.kind = .rollover
                        line.note = entry.note ?? (entry.toPotID == nil ? "no winner: rolls over" : "rolled over")
                        if let to = entry.toPotID {
                            add(with(line, fund: .pot(pot), cents: -entry.cents))
                            credit(.pot(to), entry.cents, line)
                        } else {
                            // Nothing moves; the line says the pot stayed.
                            books.lines.append(with(line, fund: .pot(pot), cents: 0))
                        }
                    }
                case .settle:
                    guard let event = entry.eventID, let division = entry.division else { continue }
                    let key = Self.settleKey(event, division)
                    let before = books.settled[key] ?? 0
                    books.settled[key] = entry.cents
                    var line = template
                    line.kind = .settle
                    line.note = "what the \(division.isEmpty ? "" : division + " ")purse left, to the club"
                    add(with(line, fund: .purse, cents: before - entry.cents))
                    add(with(line, fund: .club, cents: entry.cents - before))
                case .purse:
                    guard let event = entry.eventID, let player = entry.playerID else { continue }
                    let key = CheckIn.recordID(event: event, player: player)
                    let before = books.purseEntries[key]
                    books.purseEntries[key] = entry
                    let paidBefore = before?.method == nil ? 0 : before?.cents ?? 0
                    let paidAfter = entry.method == nil ? 0 : entry.cents
                    var line = template
                    line.kind = .purse
                    line.note = entry.note ?? (entry.method.map { "paid \(entry.division ?? "") place \(entry.place ?? 0) (\($0.rawValue))" } ?? "")
                    add(with(line, fund: .purse, cents: paidBefore - paidAfter))
                }
            }
        }
        return books
    }

    static func funds(_ payment: FeePayment) -> [Fund: Int] {
        guard payment.paid else { return [:] }
        return payment.funds.reduce(into: [:]) { result, amount in
            if let fund = amount.target { result[fund, default: 0] += amount.cents }
        }
    }

    private static func with(_ line: Line, fund: Fund, cents: Int) -> Line {
        var line = line
        line.fund = fund
        line.cents = cents
        return line
    }
}
