import Foundation

/// Amounts are whole cents of the club's one currency: no floating point anywhere a sum is
/// kept, so every device adds the same ledger up to the same cent.
public enum Money {
    /// The currency a club starts with.
    public static let defaultCurrency = "USD"
    /// The largest single amount a form or API accepts (a million in the currency's units):
    /// far past any club's fee or pot, and small enough that no sum of a season overflows.
    public static let maxCents = 100_000_000

    static let symbols: [String: String] = [
        "USD": "$", "CAD": "CA$", "AUD": "A$", "NZD": "NZ$", "EUR": "€", "GBP": "£", "JPY": "¥", "SEK": "kr ", "NOK": "kr ", "DKK": "kr ",
        "CHF": "CHF ",
    ]

    /// "$12.50", "−€3.05", "120.00 ISK": the sign first, then the currency's symbol when it
    /// has a short one, else the amount and the code.
    public static func format(_ cents: Int, currency: String) -> String {
        let magnitude = cents.magnitude
        let units = magnitude / 100
        let rest = magnitude % 100
        let amount = "\(units).\(rest < 10 ? "0" : "")\(rest)"
        let sign = cents < 0 ? "−" : ""
        if let symbol = symbols[currency] { return sign + symbol + amount }
        return sign + amount + " " + currency
    }

    /// "12.50" as a form shows an amount to edit.
    public static func plain(_ cents: Int) -> String {
        let magnitude = cents.magnitude
        return "\(cents < 0 ? "-" : "")\(magnitude / 100).\(magnitude % 100 < 10 ? "0" : "")\(magnitude % 100)"
    }

    /// An amount typed in a form ("12", "12.5", "12.50"), in cents; nil when it is no such
    /// amount or past `maxCents`.
    public static func cents(typed raw: String?) -> Int? {
        let text = TextRules.cleaned(raw).replacingOccurrences(of: ",", with: ".")
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let units = TextRules.wholeNumber(parts[0]), units <= maxCents / 100 else { return nil }
        var cents = units * 100
        if parts.count == 2 {
            let fraction = parts[1]
            guard (1...2).contains(fraction.count), let digits = TextRules.wholeNumber(fraction) else { return nil }
            cents += fraction.count == 1 ? digits * 10 : digits
        }
        return cents <= maxCents ? cents : nil
    }

    /// An ISO 4217 code as typed: three letters, upper-cased.
    public static func currency(_ raw: String?, into errors: inout FieldErrors) -> String {
        let code = TextRules.cleaned(raw).uppercased()
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            errors.add("currency", "The currency is its three-letter code (USD, EUR, GBP, SEK, …).")
            return defaultCurrency
        }
        return code
    }
}

/// Where a share of a fee goes: the night's purse (paid out by place), the club, or a pot.
public enum Fund: Hashable, Sendable, Comparable {
    case purse, club
    case pot(UUID)

    /// "purse", "club" or the pot's id, as the API and the ledger write it.
    public var text: String {
        switch self {
        case .purse: "purse"
        case .club: "club"
        case .pot(let id): id.lowercasedText
        }
    }

    public init?(text: String) {
        switch text {
        case "purse": self = .purse
        case "club": self = .club
        default:
            guard let id = UUID(text: text) else { return nil }
            self = .pot(id)
        }
    }

    public var potID: UUID? {
        if case .pot(let id) = self { id } else { nil }
    }

    public static func < (lhs: Fund, rhs: Fund) -> Bool {
        func rank(_ fund: Fund) -> (Int, String) {
            switch fund {
            case .purse: (0, "")
            case .club: (2, "")
            case .pot(let id): (1, id.lowercasedText)
            }
        }
        return rank(lhs) < rank(rhs)
    }
}

/// Part of an amount that went to one fund.
public struct FundAmount: Codable, Hashable, Sendable {
    /// `Fund.text`.
    public var fund: String
    public var cents: Int

    public init(_ fund: Fund, cents: Int) {
        self.init(fund: fund.text, cents: cents)
    }

    public init(fund: String, cents: Int) {
        self.fund = fund
        self.cents = cents
    }

    public var target: Fund? { Fund(text: fund) }
}
