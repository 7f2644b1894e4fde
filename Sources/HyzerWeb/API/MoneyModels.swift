import Foundation
import Hummingbird
import HyzerCore

/// `POST /api/v1/pots`.
struct PotBody: Decodable {
    var name: String?
    var kind: String?
    var seasonID: String?
    var capCents: Int?
    var overflowPotID: String?
}

/// `POST /api/v1/pots/{id}/contributions`: money in by hand (negative: a correction).
struct ContributionBody: Decodable {
    var cents: Int
    var eventID: String?
    var note: String?
}

/// `POST /api/v1/pots/{id}/payouts`: the balance to the winners, or a rollover.
struct PotPayoutBody: Decodable {
    var eventID: String
    var playerIDs: [String]
    /// The ways the balance splits (a CTP pot's holes); the shares nobody won stay.
    var shares: Int?
    var rolloverTo: String?
}

/// `POST /api/v1/events/{id}/payouts`: a purse payout adjusted, or paid.
struct PursePayoutBody: Decodable {
    var playerID: String
    var cents: Int?
    var method: String?
    var division: String?
    var place: Int?
    var note: String?
}

struct PotResponse: ResponseEncodable {
    struct Line: Encodable {
        var at: Date
        var kind: String
        var cents: Int
        @NullWhenNone var eventID: String?
        @NullWhenNone var playerID: String?
        @NullWhenNone var by: String?
        @NullWhenNone var device: String?
        var note: String
    }

    var id: String
    var name: String
    var kind: String
    @NullWhenNone var seasonID: String?
    @NullWhenNone var capCents: Int?
    @NullWhenNone var overflowPotID: String?
    var balanceCents: Int
    var currency: String
    var ledger: [Line]

    /// `audit`: a coach's view, naming who recorded each line on which device.
    init(_ pot: Pot, books: ClubBooks, currency: String, audit: Bool, withLedger: Bool = true) {
        id = Format.id(pot.id)
        name = pot.name
        kind = pot.kind.rawValue
        seasonID = pot.seasonID.map(Format.id)
        capCents = pot.capCents
        overflowPotID = pot.overflowPotID.map(Format.id)
        balanceCents = books.balance(of: .pot(pot.id))
        self.currency = currency
        ledger =
            withLedger
            ? books.lines(of: .pot(pot.id)).map {
                Line(
                    at: Date(timeIntervalSince1970: Double($0.at.wallMillis) / 1000), kind: $0.kind.potKind, cents: $0.cents,
                    eventID: $0.eventID.map(Format.id), playerID: $0.playerID.map(Format.id), by: audit ? $0.recordedBy.map(Format.id) : nil,
                    device: audit ? Format.id($0.at.deviceID) : nil, note: audit ? $0.note : "")
            } : []
    }
}

struct PotListResponse: ResponseEncodable {
    var pots: [PotResponse]
}

struct MoneyEntryResponse: ResponseEncodable {
    var id: String
    var kind: String
    var cents: Int
    @NullWhenNone var potID: String?
    @NullWhenNone var eventID: String?
    @NullWhenNone var playerID: String?
    @NullWhenNone var method: String?
    var at: Date

    init(_ entry: MoneyEntry) {
        id = Format.id(entry.id)
        kind = entry.kind.rawValue
        cents = entry.cents
        potID = entry.potID.map(Format.id)
        eventID = entry.eventID.map(Format.id)
        playerID = entry.playerID.map(Format.id)
        method = entry.method?.rawValue
        at = Date(timeIntervalSince1970: Double(entry.recordedAt.wallMillis) / 1000)
    }
}

struct MoneyEntryListResponse: ResponseEncodable {
    var entries: [MoneyEntryResponse]
}

/// `GET /api/v1/events/{id}/money`. A coach sees it all; a player their own aces and payouts.
struct NightMoneyResponse: ResponseEncodable {
    struct Fund: Encodable {
        var fund: String
        var cents: Int
    }

    struct Ace: Encodable {
        var playerID: String
        var roundID: String
        var hole: Int
        var eligible: Bool
    }

    struct Payout: Encodable {
        var division: String
        var playerID: String
        var place: Int
        var cents: Int
        var proposedCents: Int
        var paid: Bool
        @NullWhenNone var method: String?
    }

    struct Purse: Encodable {
        var division: String
        var cents: Int
        var field: Int
        var paidOutCents: Int
        var leftCents: Int
    }

    struct PotBalance: Encodable {
        var potID: String
        var balanceCents: Int
    }

    var eventID: String
    var currency: String
    var `in`: [Fund]
    @NullWhenNone var acePotID: String?
    var aceShareCents: Int
    var aces: [Ace]
    var payouts: [Payout]
    var purses: [Purse]
    var pots: [PotBalance]
    var final: Bool

    init(_ money: NightMoney, currency: String, viewer: Identity?, showPots: Bool) {
        let coach = viewer?.role.includes(.coach) == true
        let mine: (UUID) -> Bool = { coach || $0 == viewer?.playerID }
        eventID = Format.id(money.eventID)
        self.currency = currency
        self.in = coach ? money.incoming.map { Fund(fund: $0.fund, cents: $0.cents) } : []
        acePotID = money.acePotID.map(Format.id)
        aceShareCents = coach || showPots ? money.aceShare : 0
        aces = money.aces.filter { mine($0.playerID) }.map {
            Ace(playerID: Format.id($0.playerID), roundID: Format.id($0.roundID), hole: $0.hole, eligible: $0.eligible)
        }
        payouts = money.payouts.filter { mine($0.playerID) }.map {
            Payout(
                division: $0.division, playerID: Format.id($0.playerID), place: $0.place, cents: $0.cents, proposedCents: $0.proposedCents,
                paid: $0.paid, method: $0.method?.rawValue)
        }
        purses =
            coach
            ? money.purses.map { Purse(division: $0.division, cents: $0.cents, field: $0.field, paidOutCents: $0.paidOut, leftCents: $0.left) } : []
        pots = coach || showPots ? money.pots.map { PotBalance(potID: Format.id($0.potID), balanceCents: $0.balanceCents) } : []
        final = money.final
    }
}

/// `GET /api/v1/money/ledger`: the books (a season's part with `?seasonID=`), running balances.
struct LedgerResponse: ResponseEncodable {
    struct FundBalance: Encodable {
        var fund: String
        var name: String
        var balanceCents: Int
    }

    struct Line: Encodable {
        var at: Date
        var fund: String
        var fundName: String
        var kind: String
        var cents: Int
        var balanceCents: Int
        @NullWhenNone var eventID: String?
        @NullWhenNone var playerID: String?
        @NullWhenNone var by: String?
        var device: String
        var entryID: String
        var note: String
    }

    var currency: String
    @NullWhenNone var seasonID: String?
    var balanceCents: Int
    var funds: [FundBalance]
    var lines: [Line]

    init(_ table: LedgerTable, currency: String, seasonID: UUID?) {
        self.currency = currency
        self.seasonID = seasonID.map(Format.id)
        balanceCents = table.total
        funds = table.funds.map { FundBalance(fund: $0.fund.text, name: $0.name, balanceCents: $0.balance) }
        lines = table.rows.map {
            Line(
                at: $0.at, fund: $0.line.fund.text, fundName: $0.fundName, kind: $0.line.kind.rawValue, cents: $0.line.cents,
                balanceCents: $0.balance,
                eventID: $0.line.eventID.map(Format.id), playerID: $0.line.playerID.map(Format.id), by: $0.line.recordedBy.map(Format.id),
                device: Format.id($0.device), entryID: Format.id($0.line.sourceID), note: $0.line.note)
        }
    }
}
