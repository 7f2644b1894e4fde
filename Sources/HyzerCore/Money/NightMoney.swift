import Foundation

/// A league night's money: what came in by fund, the aces in its scores and who of them paid
/// into the ace pot, each division's purse paid by place, and the pots after it. A pure
/// function of the books, the season's plan, the night's standings and its aces.
public struct NightMoney: Sendable {
    public struct Ace: Hashable, Sendable {
        public var playerID: UUID
        public var roundID: UUID
        public var hole: Int
        /// The thrower paid into the night's ace pot.
        public var eligible: Bool

        public init(playerID: UUID, roundID: UUID, hole: Int, eligible: Bool = false) {
            self.playerID = playerID
            self.roundID = roundID
            self.hole = hole
            self.eligible = eligible
        }
    }

    public struct Payout: Hashable, Sendable {
        public var division: String
        public var playerID: UUID
        public var place: Int
        /// What the table gives.
        public var proposedCents: Int
        /// What a coach set (or the proposal).
        public var cents: Int
        public var method: MoneyEntry.Method?
        public var paid: Bool { method != nil }
    }

    public struct Purse: Hashable, Sendable {
        public var division: String
        public var cents: Int
        /// Players who paid into it.
        public var field: Int
        public var paidOut: Int
        /// What the places leave (rounding, places nobody fills): the club's.
        public var left: Int
    }

    public var eventID: UUID
    public var plan: FeePlan?
    /// The payout table the night is paid by.
    public var table: FeePlan.Payout?
    public var incoming: [FundAmount]
    public var acePotID: UUID?
    public var aces: [Ace]
    public var payouts: [Payout]
    public var purses: [Purse]
    public var pots: [(potID: UUID, balanceCents: Int)]
    /// Every round of the night is completed: the places are final.
    public var final: Bool
    /// The pots already paid or rolled over for this night, with what each winner took.
    public var decided: [UUID: [(playerID: UUID, cents: Int)]] = [:]

    /// The eligible aces' share each of the ace pot's balance (what is left over stays).
    public var aceShare: Int {
        let eligible = aces.filter(\.eligible).count
        guard eligible > 0, let pot = acePotID, decided[pot] == nil, let balance = pots.first(where: { $0.potID == pot })?.balanceCents else {
            return 0
        }
        return max(0, balance) / eligible
    }

    /// Every hole in one in the night's rounds, as its scores stand now.
    public static func aces(in boards: [RoundBoard]) -> [Ace] {
        // A team round's ace is its team's (whose throw it was is not recorded); a putting
        // round's 1 is one putt made.
        boards.filter { $0.snapshot.round.teams.isEmpty && $0.snapshot.round.format != .putting }.flatMap { board in
            board.scores.holes.filter { $0.value.winner.strokes == .count(1) }.keys.sorted().map {
                Ace(playerID: $0.playerID, roundID: board.snapshot.round.id, hole: $0.hole)
            }
        }
    }

    public static func compute(
        eventID: UUID, plan: FeePlan?, books: ClubBooks, checkIns: [CheckIn], standings: EventStandings, aces found: [Ace], pots: [Pot]
    ) -> NightMoney {
        let payments = books.payments.values.filter { $0.eventID == eventID && $0.paid }
        // The table the night's fees were paid under (the latest payment's), else the plan's.
        let table = payments.filter { $0.payout != nil }.max { $0.recordedAt < $1.recordedAt }?.payout ?? plan?.payout
        var incoming: [String: Int] = [:]
        for payment in payments { for amount in payment.funds { incoming[amount.fund, default: 0] += amount.cents } }
        let order = incoming.keys.sorted { (Fund(text: $0) ?? .club) < (Fund(text: $1) ?? .club) }

        let acePotID =
            plan?.potIDs.first { id in pots.contains { $0.id == id && $0.kind == .ace } }
        let aces = found.map { ace in
            var ace = ace
            let payment = payments.first { $0.playerID == ace.playerID }
            ace.eligible = acePotID.map { pot in payment?.funds.contains { $0.target == .pot(pot) && $0.cents > 0 } ?? false } ?? false
            return ace
        }

        let divisionOf = Dictionary(checkIns.map { ($0.playerID, $0.division) }, uniquingKeysWith: { a, _ in a })
        var purseBy: [String: (cents: Int, players: Set<UUID>)] = [:]
        for payment in payments {
            let purse = payment.funds.filter { $0.target == .purse }.reduce(0) { $0 + $1.cents }
            guard purse > 0 else { continue }
            let division = divisionOf[payment.playerID] ?? payment.division ?? ""
            purseBy[division, default: (0, [])].cents += purse
            purseBy[division, default: (0, [])].players.insert(payment.playerID)
        }
        var payouts: [Payout] = []
        var purses: [Purse] = []
        for division in purseBy.keys.sorted() {
            guard let purse = purseBy[division] else { continue }
            let entries = standings.division(division)?.entries.filter { !$0.dnf && purse.players.contains($0.playerID) } ?? []
            var groups: [[UUID]] = []
            var lastPosition: String?
            for entry in entries {
                if entry.position == lastPosition, !groups.isEmpty {
                    groups[groups.count - 1].append(entry.playerID)
                } else {
                    groups.append([entry.playerID])
                }
                lastPosition = entry.position
            }
            let proposal = Payouts.propose(
                purse: purse.cents, groups: groups, field: purse.players.count, payout: table ?? FeePlan.Payout(percentages: [100]))
            var proposed = Dictionary(proposal.places.map { ($0.playerID, $0) }, uniquingKeysWith: { a, _ in a })
            // A payout a coach recorded stands, even for a player the table no longer pays.
            for entry in books.purseEntries.values where entry.eventID == eventID && entry.division == division {
                guard let player = entry.playerID, proposed[player] == nil else { continue }
                proposed[player] = Payouts.Place(playerID: player, place: entry.place ?? 1, cents: 0)
            }
            let rows = proposed.values.sorted { ($0.place, $0.playerID.lowercasedText) < ($1.place, $1.playerID.lowercasedText) }.map { place in
                let recorded = books.purseEntries[CheckIn.recordID(event: eventID, player: place.playerID)]
                return Payout(
                    division: division, playerID: place.playerID, place: recorded?.place ?? place.place, proposedCents: place.cents,
                    cents: recorded?.cents ?? place.cents, method: recorded?.method)
            }
            payouts += rows
            let out = rows.reduce(0) { $0 + $1.cents }
            purses.append(
                Purse(
                    division: division, cents: purse.cents, field: purse.players.count, paidOut: rows.filter(\.paid).reduce(0) { $0 + $1.cents },
                    left: purse.cents - out))
        }
        let balances = books.balances
        let nightPots = pots.filter { pot in !pot.archived && (plan?.potIDs.contains(pot.id) ?? false) }
        var money = NightMoney(
            eventID: eventID, plan: plan, table: table, incoming: order.map { FundAmount(fund: $0, cents: incoming[$0] ?? 0) }, acePotID: acePotID,
            aces: aces, payouts: payouts, purses: purses, pots: nightPots.map { ($0.id, balances[.pot($0.id)] ?? 0) },
            final: standings.isFinal)
        for line in books.lines where line.eventID == eventID && (line.kind == .payout || line.kind == .rollover) && line.cents <= 0 {
            guard let pot = line.fund.potID else { continue }
            money.decided[pot, default: []] += line.playerID.map { [($0, -line.cents)] } ?? []
        }
        return money
    }
}
