import Foundation

/// What a season charges to play a night and where each fee goes: the entry fee per division
/// ("*" for any other), its split into funds, and how the purse is paid by place.
/// Kept on the season (`"fees"` of `PATCH /api/v1/seasons/{id}`); each fee payment records
/// the split it was made under, so changing the plan never rewrites a night already paid.
public struct FeePlan: Codable, Hashable, Sendable {
    public struct Share: Codable, Hashable, Sendable {
        /// `Fund.text`: "purse", "club" or a pot's id.
        public var fund: String
        public var cents: Int?
        public var percent: Int?

        public init(fund: String, cents: Int? = nil, percent: Int? = nil) {
            self.fund = fund
            self.cents = cents
            self.percent = percent
        }
    }

    /// How a division's purse is paid: percentages by place (first first), or the top third
    /// of the field on a sliding scale; below `winnerTakesAllUnder` players, all to first.
    public struct Payout: Codable, Hashable, Sendable {
        public var percentages: [Int]?
        public var topThird: Bool?
        public var winnerTakesAllUnder: Int?

        public init(percentages: [Int]? = nil, topThird: Bool? = nil, winnerTakesAllUnder: Int? = nil) {
            self.percentages = percentages
            self.topThird = topThird
            self.winnerTakesAllUnder = winnerTakesAllUnder
        }

        /// Each paid place's weight for a field of `field` players, first place first.
        public func weights(field: Int) -> [Int] {
            if let under = winnerTakesAllUnder, field < under { return [1] }
            if topThird == true {
                let places = max(1, field / 3)
                return (1...places).reversed().map { $0 }
            }
            return percentages ?? [100]
        }

        /// The rule in words, for the season and night pages.
        public var words: String {
            var text =
                if topThird == true {
                    "the top third of the field, on a sliding scale"
                } else {
                    (percentages ?? [100]).enumerated().map { "\(Ordinal.text($0.offset + 1)) \($0.element) %" }.joined(separator: ", ")
                }
            if let under = winnerTakesAllUnder { text += "; winner takes all under \(under) players" }
            return text
        }
    }

    /// Division name (or "*") → fee in cents.
    public var entry: [String: Int]
    public var split: [Share]
    public var payout: Payout

    public init(entry: [String: Int], split: [Share], payout: Payout) {
        self.entry = entry
        self.split = split
        self.payout = payout
    }

    public static let maxShares = 12
    public static let maxPlaces = 50

    /// The fee of `division`, else of "*"; for a night without divisions, the one fee when
    /// there is only one; nil when the plan names none.
    public func fee(for division: String) -> Int? {
        if let fee = entry.first(where: { $0.key != "*" && $0.key.caseInsensitiveCompare(division) == .orderedSame })?.value ?? entry["*"] {
            return fee
        }
        return division.isEmpty && Set(entry.values).count == 1 ? entry.values.first : nil
    }

    /// `cents` paid, divided as the plan says: fixed shares first, in their order (each as far
    /// as the amount goes), then the percentages of what is left, rounded down; cents left by
    /// rounding, or by a plan of fixed shares only when more was paid, go to the club.
    public func split(_ cents: Int) -> [FundAmount] {
        guard cents > 0 else { return [] }
        var amounts: [String: Int] = [:]
        var order: [String] = []
        func add(_ fund: String, _ amount: Int) {
            guard amount > 0 else { return }
            if amounts[fund] == nil { order.append(fund) }
            amounts[fund, default: 0] += amount
        }
        var left = cents
        for share in split {
            guard let fixed = share.cents else { continue }
            let amount = min(fixed, left)
            add(share.fund, amount)
            left -= amount
        }
        let rest = left
        for share in split {
            guard let percent = share.percent else { continue }
            let amount = rest * percent / 100
            add(share.fund, amount)
            left -= amount
        }
        add(Fund.club.text, left)
        return order.compactMap { fund in amounts[fund].map { FundAmount(fund: fund, cents: $0) } }
    }

    /// The pots the plan pays into.
    public var potIDs: [UUID] { split.compactMap { Fund(text: $0.fund)?.potID } }

    /// The plan a coach gave, checked: fees for the season's divisions (or "*"), shares that
    /// name a fund once each and add up to every fee, a payout table of whole percentages
    /// that add up to 100 (or the top third). `pots` are the ids of the club's pots.
    public func validated(divisions: [String], pots: Set<UUID>) throws(FieldErrors) -> FeePlan {
        var errors = FieldErrors()
        var plan = self
        plan.entry = [:]
        if entry.isEmpty { errors.add("fees.entry", "Give the entry fee, for every division or as \"*\" for all.") }
        for (name, cents) in entry {
            let division = name == "*" ? "*" : divisions.first { $0.caseInsensitiveCompare(name) == .orderedSame }
            guard let division else {
                errors.add(
                    "fees.entry",
                    divisions.isEmpty
                        ? "This season has no divisions: give the fee as \"*\"."
                        : "\(name) is not one of the season's divisions (\(divisions.joined(separator: ", "))), nor \"*\".")
                continue
            }
            guard (0...Money.maxCents).contains(cents) else {
                errors.add("fees.entry", "A fee is whole cents from 0 to \(Money.maxCents).")
                continue
            }
            plan.entry[division] = cents
        }
        if !divisions.isEmpty, !entry.isEmpty, plan.entry["*"] == nil,
            let missing = divisions.first(where: { plan.entry[$0] == nil })
        {
            errors.add("fees.entry", "Give \(missing)'s fee, or a fee for every other division as \"*\".")
        }
        if split.isEmpty || split.count > Self.maxShares {
            errors.add("fees.split", "Split the fee into 1 to \(Self.maxShares) funds.")
        }
        var seen: Set<String> = []
        var fixed = 0
        var percents = 0
        plan.split = []
        for share in split {
            guard let fund = Fund(text: share.fund.lowercased()) else {
                errors.add("fees.split", "A fund is \"purse\", \"club\" or a pot's id; \(share.fund) is none of them.")
                continue
            }
            if let pot = fund.potID, !pots.contains(pot) { errors.add("fees.split", "There is no pot \(share.fund).") }
            if !seen.insert(fund.text).inserted { errors.add("fees.split", "Each fund takes one share; \(fund.text) has two.") }
            switch (share.cents, share.percent) {
            case (let cents?, nil) where (1...Money.maxCents).contains(cents): fixed += cents
            case (nil, let percent?) where (1...100).contains(percent): percents += percent
            default: errors.add("fees.split", "Give each fund either a fixed amount or a percentage (1–100 of what is left), not both.")
            }
            plan.split.append(Share(fund: fund.text, cents: share.cents, percent: share.percent))
        }
        let fees = Set(plan.entry.values)
        if errors.isEmpty {
            if percents == 0 {
                if let fee = fees.first(where: { $0 != fixed }) {
                    errors.add(
                        "fees.split", "The shares add up to \(fixed) cents but a fee is \(fee): make them equal, or give a percentage of the rest.")
                }
            } else if percents != 100 {
                errors.add("fees.split", "The percentages add up to \(percents); they share what is left after fixed amounts, so they add up to 100.")
            } else if let fee = fees.min(), fixed > fee {
                errors.add("fees.split", "The fixed shares (\(fixed) cents) are more than the smallest fee (\(fee)).")
            }
        }
        switch (payout.percentages, payout.topThird) {
        case (let percentages?, nil):
            if percentages.isEmpty || percentages.count > Self.maxPlaces || !percentages.allSatisfy({ (1...100).contains($0) })
                || percentages.reduce(0, +) != 100
            {
                errors.add("fees.payout", "Pay 1 to \(Self.maxPlaces) places whole percentages (1–100) that add up to 100.")
            } else if zip(percentages, percentages.dropFirst()).contains(where: { $0 < $1 }) {
                errors.add("fees.payout", "A later place is never paid more than an earlier one.")
            }
        case (nil, true?): break
        default: errors.add("fees.payout", "Pay by \"percentages\" per place, or the \"topThird\".")
        }
        if let under = payout.winnerTakesAllUnder, !(2...1_000).contains(under) {
            errors.add("fees.payout", "Winner takes all under a field of 2 to 1000 players.")
        }
        try errors.throwIfAny()
        return plan
    }
}

/// "1st", "2nd", "23rd": places as a page says them.
public enum Ordinal {
    public static func text(_ number: Int) -> String {
        let suffix =
            switch (number % 10, number % 100) {
            case (1, let h) where h != 11: "st"
            case (2, let h) where h != 12: "nd"
            case (3, let h) where h != 13: "rd"
            default: "th"
            }
        return "\(number)\(suffix)"
    }
}
