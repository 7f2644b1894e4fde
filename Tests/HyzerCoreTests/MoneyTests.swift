import Foundation
import HyzerCore
import Testing

/// The club's money as pure rules: a fee's split, payouts by place with ties, capped pots
/// overflowing, one pot decision per night, and the books adding up whatever the order the
/// records arrive in.
@Suite struct MoneyTests {
    let device = UUID()
    let other = UUID()
    let event = UUID()
    let players = (0..<6).map { _ in UUID() }

    func stamp(_ seconds: Int, device: UUID? = nil) -> HLC { HLC(wallMillis: Int64(seconds) * 1000, counter: 0, deviceID: device ?? self.device) }

    func pot(_ kind: Pot.Kind, cap: Int? = nil, overflow: UUID? = nil) -> Pot {
        Pot(id: UUID(), name: "\(kind) pot", kind: kind, capCents: cap, overflowPotID: overflow, createdAt: Date(), updatedAt: stamp(0))
    }

    func payment(_ player: Int, _ funds: [FundAmount], at seconds: Int, paid: Bool = true, device: UUID? = nil) -> FeePayment {
        var payment = FeePayment(
            id: UUID(), eventID: event, playerID: players[player], paid: paid, recordedBy: nil, recordedAt: stamp(seconds, device: device))
        payment.cents = funds.reduce(0) { $0 + $1.cents }
        payment.funds = paid ? funds : []
        return payment
    }

    @Test func aFeeIsSplitFixedAmountsFirstThenPercentagesWithRoundingToTheClub() throws {
        let ace = UUID()
        let plan = FeePlan(
            entry: ["MPO": 1_000, "*": 500],
            split: [
                .init(fund: Fund.pot(ace).text, cents: 100), .init(fund: "purse", percent: 67), .init(fund: "club", percent: 33),
            ], payout: .init(percentages: [100]))
        #expect(plan.fee(for: "mpo") == 1_000 && plan.fee(for: "FPO") == 500)
        // 1000: 100 to the pot; of 900, 603 to the purse and 297 to the club.
        #expect(plan.split(1_000) == [FundAmount(.pot(ace), cents: 100), FundAmount(.purse, cents: 603), FundAmount(.club, cents: 297)])
        // 333: 100 to the pot; of 233, 156 (156.11) and 76 (76.89) — the cent rounding leaves goes to the club too.
        #expect(plan.split(333) == [FundAmount(.pot(ace), cents: 100), FundAmount(.purse, cents: 156), FundAmount(.club, cents: 77)])
        // Less than the fixed share: all of it to the pot.
        #expect(plan.split(60) == [FundAmount(.pot(ace), cents: 60)])
        #expect(plan.split(333).reduce(0) { $0 + $1.cents } == 333)
        let valid = try plan.validated(divisions: ["MPO", "FPO"], pots: [ace])
        #expect(valid.potIDs == [ace])
    }

    @Test func aPlanIsRefusedWithEveryReason() {
        let plan = FeePlan(
            entry: ["MPO": 1_000, "XYZ": 5], split: [.init(fund: "purse", percent: 60), .init(fund: "purse", percent: 30), .init(fund: "nowhere")],
            payout: .init(percentages: [30, 50, 20]))
        #expect(throws: FieldErrors.self) { try plan.validated(divisions: ["MPO", "FPO"], pots: []) }
        do {
            _ = try plan.validated(divisions: ["MPO", "FPO"], pots: [])
        } catch {
            let fields = Set(error.entries.map(\.field))
            #expect(fields == ["fees.entry", "fees.split", "fees.payout"])
            #expect(error.summary.contains("XYZ") && error.summary.contains("nowhere") && error.summary.contains("later place"))
        }
        // Fixed shares alone must add up to every fee.
        let fixed = FeePlan(entry: ["*": 500], split: [.init(fund: "purse", cents: 400)], payout: .init(topThird: true))
        #expect(throws: FieldErrors.self) { try fixed.validated(divisions: [], pots: []) }
    }

    @Test func tiedPlayersSplitThePlacesTheyCoverAndTheRestGoesToTheClub() {
        let (a, b, c, d) = (players[0], players[1], players[2], players[3])
        // 1000 at 50/30/20: b and c tie for second, covering 300 + 200 = 500: 250 each.
        let tie = Payouts.propose(purse: 1_000, groups: [[a], [b, c], [d]], field: 4, payout: .init(percentages: [50, 30, 20]))
        #expect(tie.places.map(\.cents) == [500, 250, 250] && tie.places.map(\.place) == [1, 2, 2] && tie.left == 0)
        // Three tie for first of 1001 at 50/30/20: 1000 (rounded down shares) / 3 = 333 each; 2 cents left.
        let three = Payouts.propose(purse: 1_001, groups: [[a, b, c]], field: 3, payout: .init(percentages: [50, 30, 20]))
        #expect(three.places.map(\.cents) == [333, 333, 333] && three.left == 2)
        // A tie across the table's end shares only the paid place.
        let edge = Payouts.propose(purse: 900, groups: [[a], [b, c]], field: 3, payout: .init(percentages: [70, 30]))
        #expect(edge.places.map(\.cents) == [630, 135, 135] && edge.left == 0)
        // Fewer finishers than places: the unpaid places stay with the club.
        let short = Payouts.propose(purse: 1_000, groups: [[a]], field: 1, payout: .init(percentages: [50, 30, 20]))
        #expect(short.places.map(\.cents) == [500] && short.left == 500)
        // The top third of nine: three places weighted 3, 2, 1; under four players winner takes all.
        let third = Payouts.propose(purse: 600, groups: players.map { [$0] }, field: 9, payout: .init(topThird: true))
        #expect(third.places.map(\.cents) == [300, 200, 100])
        let small = Payouts.propose(purse: 600, groups: [[a], [b], [c]], field: 3, payout: .init(topThird: true, winnerTakesAllUnder: 4))
        #expect(small.places.map(\.cents) == [600] && small.left == 0)
    }

    @Test func aCappedPotOverflowsIntoItsBackupAndTheBooksAddUp() {
        let backup = pot(.other)
        let ace = pot(.ace, cap: 250, overflow: backup.id)
        let share = [FundAmount(.pot(ace.id), cents: 100), FundAmount(.purse, cents: 400)]
        let payments = (0..<4).map { payment($0, share, at: $0 + 1) }
        let books = ClubBooks.derive(pots: [ace, backup], entries: [], payments: payments)
        #expect(books.balance(of: .pot(ace.id)) == 250)
        #expect(books.balance(of: .pot(backup.id)) == 150)
        #expect(books.balance(of: .purse) == 1_600)
        #expect(books.lines(of: .pot(ace.id)).map(\.kind) == [.fee, .fee, .fee, .overflow, .fee, .overflow])
        #expect(books.total == 2_000, "overflow moves money between funds and never makes any")
        // A fee taken back comes out of where it came to rest: the last one all went to the backup.
        let back = payment(3, share, at: 9, paid: false)
        let after = ClubBooks.derive(pots: [ace, backup], entries: [], payments: payments + [back])
        #expect(after.balance(of: .pot(ace.id)) == 250 && after.balance(of: .pot(backup.id)) == 50 && after.total == 1_500)
        let firstBack = payment(0, share, at: 10, paid: false)
        let both = ClubBooks.derive(pots: [ace, backup], entries: [], payments: payments + [back, firstBack])
        #expect(both.balance(of: .pot(ace.id)) == 150 && both.balance(of: .pot(backup.id)) == 50, "never below zero")
    }

    @Test func aFeeRecordedTwiceCountsOnceAndTakenBackComesOut() {
        let share = [FundAmount(.purse, cents: 700), FundAmount(.club, cents: 300)]
        let first = payment(0, share, at: 1)
        let again = payment(0, share, at: 2, device: other)
        let books = ClubBooks.derive(pots: [], entries: [], payments: [again, first])
        #expect(books.total == 1_000 && books.balance(of: .purse) == 700)
        let back = payment(0, share, at: 3, paid: false)
        #expect(ClubBooks.derive(pots: [], entries: [], payments: [first, back, again]).total == 0)
    }

    @Test func onePotDecisionPerNightTheLatestAndARolloverKeepsTheBalance() {
        let ctp = pot(.ctp)
        let contribution = MoneyEntry(id: UUID(), kind: .contribution, cents: 900, potID: ctp.id, recordedBy: nil, recordedAt: stamp(1))
        let rollover = MoneyEntry(
            id: UUID(), kind: .rollover, cents: 900, potID: ctp.id, eventID: event, batchID: UUID(), recordedBy: nil, recordedAt: stamp(2))
        let rolled = ClubBooks.derive(pots: [ctp], entries: [contribution, rollover], payments: [])
        #expect(rolled.balance(of: .pot(ctp.id)) == 900)
        #expect(rolled.lines(of: .pot(ctp.id)).map(\.kind.potKind) == ["in", "rollover"])
        // Two devices pay the same pot for the same night: the later decision counts.
        let batchA = UUID()
        let batchB = UUID()
        let a = [0, 1].map {
            MoneyEntry(
                id: UUID(), kind: .potPayout, cents: 450, potID: ctp.id, eventID: event, playerID: players[$0], batchID: batchA, recordedBy: nil,
                recordedAt: stamp(5))
        }
        let b = MoneyEntry(
            id: UUID(), kind: .potPayout, cents: 900, potID: ctp.id, eventID: event, playerID: players[2], batchID: batchB, recordedBy: nil,
            recordedAt: stamp(5, device: other))
        let later = device.lowercasedText < other.lowercasedText ? b : a[0]
        for order in [[contribution] + a + [b], [b, contribution] + a.reversed()] {
            let books = ClubBooks.derive(pots: [ctp], entries: order, payments: [])
            #expect(books.balance(of: .pot(ctp.id)) == 0, "never paid twice")
            #expect(books.potPayouts(of: event).count == (later.id == b.id ? 1 : 2))
        }
    }

    @Test func aPursePayoutIsItsLatestEntryAndLeavesThePurseOncePaid() {
        let fee = payment(0, [FundAmount(.purse, cents: 1_000)], at: 1)
        func purse(_ cents: Int, _ method: MoneyEntry.Method?, at seconds: Int) -> MoneyEntry {
            MoneyEntry(
                id: UUID(), kind: .purse, cents: cents, eventID: event, playerID: players[0], division: "MPO", place: 1, method: method,
                recordedBy: nil,
                recordedAt: stamp(seconds))
        }
        let adjusted = ClubBooks.derive(pots: [], entries: [purse(800, nil, at: 2)], payments: [fee])
        #expect(adjusted.balance(of: .purse) == 1_000, "an adjustment moves no money")
        let paid = ClubBooks.derive(pots: [], entries: [purse(800, nil, at: 2), purse(900, .cash, at: 3)], payments: [fee])
        #expect(paid.balance(of: .purse) == 100)
        let corrected = ClubBooks.derive(pots: [], entries: [purse(900, .cash, at: 3), purse(850, .credit, at: 4)], payments: [fee])
        #expect(corrected.balance(of: .purse) == 150 && corrected.lines(of: .purse).map(\.cents) == [1_000, -900, 50])
    }

    @Test func amountsAreFormattedAndReadAsTyped() {
        #expect(Money.format(1_250, currency: "USD") == "$12.50")
        #expect(Money.format(-305, currency: "EUR") == "−€3.05")
        #expect(Money.format(12_000, currency: "ISK") == "120.00 ISK")
        #expect(Money.cents(typed: "12") == 1_200 && Money.cents(typed: "12.5") == 1_250 && Money.cents(typed: "0,05") == 5)
        #expect(Money.cents(typed: "12.345") == nil && Money.cents(typed: "-3") == nil && Money.cents(typed: "9999999") == nil)
        #expect(Ordinal.text(1) == "1st" && Ordinal.text(12) == "12th" && Ordinal.text(23) == "23rd")
    }
}
