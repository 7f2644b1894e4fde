import Foundation

/// A mulligan night's allowance: each player starts with `given` mulligans and may buy up to
/// `forSale` more at `priceCents` each. A mulligan is a throw taken again: the hole's score
/// counts only the throws kept, and the score event records how many were used there.
public struct MulliganRule: Codable, Hashable, Sendable {
    public var given: Int
    public var forSale: Int
    public var priceCents: Int

    public static let countRange = 0...9

    public init(given: Int, forSale: Int = 0, priceCents: Int = 0) {
        self.given = given
        self.forSale = forSale
        self.priceCents = priceCents
    }

    // A client may leave out what it does not use: no sale, no price.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        given = try container.decodeIfPresent(Int.self, forKey: .given) ?? 0
        forSale = try container.decodeIfPresent(Int.self, forKey: .forSale) ?? 0
        priceCents = try container.decodeIfPresent(Int.self, forKey: .priceCents) ?? 0
    }

    /// "1 mulligan each · up to 2 more for sale": what the round page says. The price stays
    /// with the coach who sells them (and in the API): a kept page cannot follow the club's
    /// currency.
    public var summary: String {
        let given = given > 0 ? "\(given) mulligan\(given == 1 ? "" : "s") each" : "No mulligans given"
        return forSale > 0 ? "\(given) · up to \(forSale) more for sale" : given
    }

    /// A rule sent by a client or the form, every reason at once under `mulligans.*`.
    public static func validated(_ rule: MulliganRule) throws(FieldErrors) -> MulliganRule {
        var errors = FieldErrors()
        if !countRange.contains(rule.given) {
            errors.add("mulligans.given", "Mulligans given must be from \(countRange.lowerBound) to \(countRange.upperBound).")
        }
        if !countRange.contains(rule.forSale) {
            errors.add("mulligans.forSale", "Mulligans for sale must be from \(countRange.lowerBound) to \(countRange.upperBound).")
        }
        if !(0...Money.maxCents).contains(rule.priceCents) {
            errors.add("mulligans.priceCents", "A mulligan's price must be from 0 to \(Money.maxCents) cents.")
        }
        if errors.isEmpty && rule.given == 0 && rule.forSale == 0 {
            errors.add("mulligans", "A mulligan night gives players mulligans or sells them: set given, forSale or both.")
        }
        if !errors.isEmpty { throw errors }
        return rule
    }
}

/// Mulligans a coach sold to a player for a round (a negative count gives some back).
/// Append-only and synced: two desks selling at once both count.
public struct MulliganSale: Identifiable, Hashable, Sendable {
    public var id: UUID
    public var roundID: UUID
    public var playerID: UUID
    public var count: Int
    public var cents: Int
    public var recordedBy: UUID?
    public var recordedAt: HLC

    public static let countRange = -9...9

    public init(id: UUID, roundID: UUID, playerID: UUID, count: Int, cents: Int, recordedBy: UUID?, recordedAt: HLC) {
        self.id = id
        self.roundID = roundID
        self.playerID = playerID
        self.count = count
        self.cents = cents
        self.recordedBy = recordedBy
        self.recordedAt = recordedAt
    }

    /// What a device accepts from the cloud.
    public var isWellFormed: Bool {
        Self.countRange.contains(count) && count != 0 && (-Money.maxCents...Money.maxCents).contains(cents)
    }
}

public struct MulliganSalePayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var roundID: UUID
    public var playerID: UUID
    public var count: Int
    public var cents: Int
    public var recordedBy: UUID?

    public init(_ sale: MulliganSale) {
        id = sale.id
        roundID = sale.roundID
        playerID = sale.playerID
        count = sale.count
        cents = sale.cents
        recordedBy = sale.recordedBy
    }

    public func sale(recordedAt: HLC) -> MulliganSale? {
        let sale = MulliganSale(
            id: id, roundID: roundID, playerID: playerID, count: count, cents: cents, recordedBy: recordedBy, recordedAt: recordedAt)
        return sale.isWellFormed ? sale : nil
    }
}

extension MulliganSale: SyncedRecord {
    public static let noun = "Mulligan sale"
    public static let recordType = RecordType.mulliganSale
    public static let merge = MergeRule.insertOnly
    public static let applyOrder = 17
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { recordedAt }
    public var recordPayload: MulliganSalePayload { MulliganSalePayload(self) }
    public static func value(_ payload: MulliganSalePayload, version: HLC) -> MulliganSale? { payload.sale(recordedAt: version) }
}

/// One player's mulligans in a round: given, bought, used (on `holes`) and left.
public struct MulliganAccount: Hashable, Sendable, Encodable {
    public var playerID: UUID
    public var given: Int
    public var bought: Int
    public var used: Int
    public var holes: [Int]

    public var allowance: Int { given + bought }
    public var left: Int { allowance - used }
    /// "1 of 3": the boards' cell.
    public var text: String { "\(used) of \(allowance)" }

    enum CodingKeys: String, CodingKey { case playerID, given, bought, used, left, holes }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(playerID.lowercasedText, forKey: .playerID)
        try container.encode(given, forKey: .given)
        try container.encode(bought, forKey: .bought)
        try container.encode(used, forKey: .used)
        try container.encode(left, forKey: .left)
        try container.encode(holes, forKey: .holes)
    }
}

/// The allowances of a round, derived from its rule, its sales and its current scores: nothing
/// "left" is stored, so a correction or a sale on another device changes it by itself.
public enum MulliganBook {
    /// Mulligans `playerID` used over their current scores, leaving out `hole` when given.
    public static func used(by playerID: UUID, in scores: CurrentScores, except hole: Int? = nil) -> (count: Int, holes: [Int]) {
        var count = 0
        var holes: [Int] = []
        for (key, state) in scores.holes where key.playerID == playerID && key.hole != hole && state.winner.mulligans > 0 {
            count += state.winner.mulligans
            holes.append(key.hole)
        }
        return (count, holes.sorted())
    }

    /// What `playerID` bought: their sales in the order they were made (by clock, then id),
    /// each counted only while the total stays from 0 to what is for sale. One device refuses
    /// a sale past either end; two devices selling at once, apart, may each accept one, and
    /// then every device counts the same earlier one and leaves the other out.
    public static func bought(by playerID: UUID, _ sales: [MulliganSale], forSale: Int) -> Int {
        let theirs = sales.filter { $0.playerID == playerID }.sorted {
            $0.recordedAt != $1.recordedAt ? $0.recordedAt < $1.recordedAt : $0.id.lowercasedText < $1.id.lowercasedText
        }
        return theirs.reduce(0) { total, sale in (0...forSale).contains(total + sale.count) ? total + sale.count : total }
    }

    public static func account(_ playerID: UUID, rule: MulliganRule, sales: [MulliganSale], scores: CurrentScores) -> MulliganAccount {
        let use = used(by: playerID, in: scores)
        return MulliganAccount(
            playerID: playerID, given: rule.given, bought: bought(by: playerID, sales, forSale: rule.forSale), used: use.count, holes: use.holes)
    }

    /// Every player's account, in the round's order; empty on a round without mulligans.
    public static func accounts(_ snapshot: RoundSnapshot, scores: CurrentScores) -> [MulliganAccount] {
        guard let rule = snapshot.round.mulligans else { return [] }
        return snapshot.round.playerIDs.map { account($0, rule: rule, sales: snapshot.mulliganSales, scores: scores) }
    }

    /// Why a sale of `count` (negative: given back) cannot be recorded for `account`, or nil.
    public static func refusal(selling count: Int, to account: MulliganAccount, rule: MulliganRule, name: String) -> String? {
        let bought = account.bought + count
        func mulligans(_ count: Int) -> String { "\(count) mulligan\(count == 1 ? "" : "s")" }
        if bought > rule.forSale {
            return account.bought == rule.forSale
                ? "\(name) has bought all \(mulligans(rule.forSale)) for sale."
                : "\(name) has bought \(account.bought) of the \(mulligans(rule.forSale)) for sale: at most \(rule.forSale - account.bought) more."
        }
        if bought < 0 { return "\(name) has bought \(mulligans(account.bought)): no more can be given back." }
        if account.given + bought < account.used {
            return "\(name) has used \(mulligans(account.used)): giving these back would leave fewer than that."
        }
        return nil
    }
}
