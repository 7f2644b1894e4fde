import Foundation
import Hummingbird
import HyzerCore
import NIOCore

// The HTML forms' fields, decoded by Hummingbird's URLEncodedFormDecoder. Every field is
// optional text: the domain's drafts check the values, so a missing or odd field is shown
// again beside the form (422), never a decoding error.

struct ScoreForm: Decodable, Sendable {
    var id: String?
    var playerID: String?
    var hole: String?
    var strokes: String?
    var supersedes: String?
    var penalties: String?
    /// On a putting round, in place of the strokes: the putts made.
    var made: String?
    /// On a mulligan night: mulligans used on the hole.
    var mulligans: String?

    var values: [String: String] {
        [
            "playerID": playerID ?? "", "hole": hole ?? "", "strokes": strokes ?? "", "penalties": penalties ?? "", "made": made ?? "",
            "mulligans": mulligans ?? "",
        ]
    }
}

struct CourseForm: Decodable, Sendable {
    var name: String?
    var holeCount: String?
    var pars: String?
    var distances: String?
    /// The edit page's table: `par[]` and `distance[]`, one per hole in order.
    var par: [String]?
    var distance: [String]?

    var draft: CourseDraft {
        CourseDraft(name: name, holeCount: holeCount, pars: pars, distances: distances, holePars: par, holeDistances: distance)
    }

    var values: [String: String] {
        ["name": name ?? "", "holeCount": holeCount ?? "", "pars": pars ?? "", "distances": distances ?? ""]
    }
}

struct PlayerForm: Decodable, Sendable {
    var displayName: String?
    var handle: String?
    var role: String?
    /// The usual division (the edit form only).
    var division: String?
    /// An entered (e.g. PDGA) rating; empty for none (the edit form only).
    var rating: String?
    /// PDGA number and email; empty for none (the edit form only).
    var pdgaNumber: String?
    var email: String?

    var values: [String: String] {
        [
            "displayName": displayName ?? "", "handle": handle ?? "", "role": role ?? "", "division": division ?? "", "rating": rating ?? "",
            "pdgaNumber": pdgaNumber ?? "", "email": email ?? "",
        ]
    }
}

struct RoundForm: Decodable, Sendable {
    var name: String?
    var courseID: String?
    /// Checkboxes named `playerIDs[]`.
    var playerIDs: [String]?
    /// A checkbox: present when ticked.
    var startNow: String?
    var eventID: String?
    /// `divisions[PLAYER_ID]`: each player's division in an event with divisions.
    var divisions: [String: String]?
    /// A bag-tag pool: the round is one of its tag rounds.
    var tagsID: String?
    /// A team format draws its teams when the round is made.
    var format: String?
    var teamsOf: String?
    var balance: String?
    var caliRule: String?
    /// A bracket's match, played as match play.
    var matchID: String?
    /// A putting round's layout: stations, "feet:points" distances and putts from each.
    var stations: String?
    var distances: String?
    var putts: String?
    /// A mulligan night (stroke play): mulligans each player gets, how many more are for
    /// sale, and each one's price ("1.00").
    var mulligansGiven: String?
    var mulligansForSale: String?
    var mulliganPrice: String?

    var values: [String: String] {
        [
            "name": name ?? "", "courseID": courseID ?? "", "eventID": eventID ?? "", "tagsID": tagsID ?? "", "format": format ?? "",
            "teamsOf": teamsOf ?? "", "balance": balance ?? "", "caliRule": caliRule ?? "", "matchID": matchID ?? "",
            "stations": stations ?? "", "distances": distances ?? "", "putts": putts ?? "", "mulligansGiven": mulligansGiven ?? "",
            "mulligansForSale": mulligansForSale ?? "", "mulliganPrice": mulliganPrice ?? "",
        ]
    }

    /// The draft's format and draw: a team format draws its teams.
    func addFormat(to draft: inout RoundDraft) {
        draft.format = format
        if let matchID, !matchID.isEmpty { draft.matchID = matchID }
        if RoundFormat(rawValue: (format ?? "").trimmingCharacters(in: .whitespaces)) == .putting {
            draft.putting = PuttingSetup(text: (stations ?? "", distances ?? "", putts ?? ""))
        }
        draft.mulligans = mulliganRule
        guard let format = RoundFormat(rawValue: (format ?? "").trimmingCharacters(in: .whitespaces)), format.isTeam else { return }
        draft.draw = RoundDraft.DrawDraft(teamsOf: Int((teamsOf ?? "").trimmingCharacters(in: .whitespaces)) ?? 2, balance: balance)
        draft.caliRule = caliRule
    }
}

extension RoundForm {
    /// The mulligans asked for, or nil when the form leaves them blank or at 0. Text that does
    /// not read is kept out of range, for `MulliganRule.validated` to name its field.
    var mulliganRule: MulliganRule? {
        func count(_ text: String?) -> Int {
            let cleaned = (text ?? "").trimmingCharacters(in: .whitespaces)
            return cleaned.isEmpty ? 0 : Int(cleaned) ?? -1
        }
        let (given, forSale) = (count(mulligansGiven), count(mulligansForSale))
        guard given != 0 || forSale != 0 else { return nil }
        let price = (mulliganPrice ?? "").trimmingCharacters(in: .whitespaces)
        return MulliganRule(given: given, forSale: forSale, priceCents: price.isEmpty ? 0 : Money.cents(typed: price) ?? -1)
    }
}

/// The round page's sale of mulligans: a player and how many (negative gives some back).
struct MulliganSaleForm: Decodable, Sendable {
    var playerID: String?
    var count: String?
}

/// A confirmation page's button (`confirm=yes`).
struct ConfirmForm: Decodable, Sendable {
    var confirm: String?
}

struct RenameForm: Decodable, Sendable {
    var name: String?
}

struct LateArrivalForm: Decodable, Sendable {
    var playerID: String?
    var division: String?
    var cardID: String?

    var values: [String: String] {
        ["playerID": playerID ?? "", "division": division ?? "", "cardID": cardID ?? ""]
    }
}

/// A CSV import page: the file's text (filled from the chosen file, or pasted).
struct CSVImportForm: Decodable, Sendable {
    var csv: String?
}

struct RetryForm: Decodable, Sendable {
    var type: String?
    var id: String?
}

/// A record kept unread, named by its row's key.
struct DismissForm: Decodable, Sendable {
    var key: String?
}

struct SignInForm: Decodable, Sendable {
    var handle: String?
    var password: String?
    var next: String?
}

/// Setup, join and claim: who the new account is and its password.
struct AccountForm: Decodable, Sendable {
    var token: String?
    var invite: String?
    var displayName: String?
    var handle: String?
    var password: String?
    /// An open sign-up told it matches an imported player answered "that is not me".
    var notMe: String?

    var values: [String: String] {
        ["displayName": displayName ?? "", "handle": handle ?? ""]
    }
}

struct InviteForm: Decodable, Sendable {
    var role: String?
    var playerID: String?
}

/// Players ticked for an invite each (`players[<player id>]=on`).
struct BulkInviteForm: Decodable, Sendable {
    var players: [String: String]?
}

struct RoleForm: Decodable, Sendable {
    var role: String?
}

struct SettingsForm: Decodable, Sendable {
    var clubName: String?
    var tvPageSeconds: String?
    var publicLeaderboards: String?
    var openSignUp: String?
    /// Absent when `--public-url` sets it (the field is not shown).
    var publicURL: String?
    var currency: String?
    var publicPots: String?
}

/// A card's hole: `strokes[PLAYER_ID]` and `penalties[PLAYER_ID]` for each player of the card.
struct CardHoleForm: Decodable, Sendable {
    var strokes: [String: String]?
    var penalties: [String: String]?
    /// On a mulligan night: `mulligans[PLAYER_ID]`, used on the hole.
    var mulligans: [String: String]?
}

struct SignForm: Decodable, Sendable {
    var playerID: String?
    var cardID: String?
}

struct EventForm: Decodable, Sendable {
    var name: String?
    /// "MPO, FPO, MA1" or one per line.
    var divisions: String?
    /// The season this is a league night of ("" for none).
    var seasonID: String?
    /// The day it is played, "YYYY-MM-DD" ("" for none).
    var playedOn: String?

    var values: [String: String] {
        ["name": name ?? "", "divisions": divisions ?? "", "seasonID": seasonID ?? "", "playedOn": playedOn ?? ""]
    }
}

struct PlayoffForm: Decodable, Sendable {
    var division: String?
    var winner: String?
}

struct CardPlanForm: Decodable, Sendable {
    /// A checkbox: present for a shotgun start, absent for tee times from the first hole.
    var shotgun: String?
    /// A checkbox: a random draw within each division.
    var draw: String?
}

/// The card editor: `card[PLAYER_ID]` = the card number of each player (blank: no card),
/// `start[card-N]` = card N's starting hole (a numeric key would read as an array index).
struct CardEditForm: Decodable, Sendable {
    var card: [String: String]?
    var start: [String: String]?
}

/// The forms' one rule for text: every field is UTF-8 once its percent-escapes are decoded.
/// A browser always sends that; anything else is refused (400) rather than stored with
/// replacement characters. What each field may hold is then the domain's drafts' to check
/// (a whole number is ASCII digits only, see `TextRules.wholeNumber`).
enum FormText {
    static func decode<T: Decodable>(_ type: T.Type, from body: ByteBuffer) throws -> T {
        let text = String(buffer: body)
        guard isUTF8(Array(body.readableBytesView)) else {
            throw HTTPError(.badRequest, message: "The form is not UTF-8 text.")
        }
        return try URLEncodedFormDecoder().decode(type, from: text)
    }

    /// Decodes `%XX` and `+` and checks that the bytes are UTF-8, field by field.
    static func isUTF8(_ body: [UInt8]) -> Bool {
        var decoded: [UInt8] = []
        var index = 0
        while index < body.count {
            let byte = body[index]
            if byte == UInt8(ascii: "%"), index + 2 < body.count, let escaped = PercentEncoding.byte(body[index + 1], body[index + 2]) {
                decoded.append(escaped)
                index += 3
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self) != nil
    }
}

/// A check-in form: a player (or the viewer themselves), or a walk-up's name; the fee box is
/// a coach's.
struct CheckInForm: Decodable, Sendable {
    var playerID: String?
    var walkUpName: String?
    var walkUpHandle: String?
    var division: String?
    var paid: String?
    /// The walk-up form's own fee box (one name per checkbox on the page).
    var walkUpPaid: String?
}

/// A coach's ticks on a night's check-in (`chosen[<player id>]=on`), with the division asked
/// for where it was not known and each fee.
struct CheckInManyForm: Decodable, Sendable {
    var chosen: [String: String]?
    var division: [String: String]?
    var paid: [String: String]?
}

/// A coach opens ("1") or closes a night's check-in.
struct CheckInOpenForm: Decodable, Sendable {
    var open: String?
}

/// `/seasons/{id}/fees`: `fee[DIVISION]` (and `fee[*]`), five share rows (`fund[row0]`,
/// `amount[row0]`, `percent[row0]` …), the payout table.
struct SeasonFeesForm: Decodable, Sendable {
    var fee: [String: String]?
    var fund: [String: String]?
    var amount: [String: String]?
    var percent: [String: String]?
    var table: String?
    var percentages: String?
    var winnerTakesAllUnder: String?

    /// As typed, by the page's field names, to show the form again.
    var values: [String: String] {
        var values: [String: String] = [:]
        for (key, value) in fee ?? [:] { values["fee[\(key)]"] = value }
        for (key, value) in fund ?? [:] { values["fund[\(key)]"] = value }
        for (key, value) in amount ?? [:] { values["amount[\(key)]"] = value }
        for (key, value) in percent ?? [:] { values["percent[\(key)]"] = value }
        values["table"] = table
        values["percentages"] = percentages
        values["winnerTakesAllUnder"] = winnerTakesAllUnder
        return values
    }

    /// The plan as typed; an amount or percentage that is no number is named.
    func plan(divisions: [String]) throws(FieldErrors) -> FeePlan {
        var errors = FieldErrors()
        var entry: [String: Int] = [:]
        let values = self.values
        for division in divisions + ["*"] {
            let field = "fee[\(division)]"
            let typed = (values[field] ?? "").trimmingCharacters(in: .whitespaces)
            guard !typed.isEmpty else { continue }
            guard let cents = Money.cents(typed: typed) else {
                errors.add(field, "\(typed) is no amount (12 or 12.50).")
                continue
            }
            entry[division] = cents
        }
        var split: [FeePlan.Share] = []
        for index in 0..<SeasonFeesPage.shareRows {
            let fund = values["fund[row\(index)]"] ?? ""
            guard !fund.isEmpty else { continue }
            let amount = (values["amount[row\(index)]"] ?? "").trimmingCharacters(in: .whitespaces)
            let percent = (values["percent[row\(index)]"] ?? "").trimmingCharacters(in: .whitespaces)
            var share = FeePlan.Share(fund: fund)
            if !amount.isEmpty {
                guard let cents = Money.cents(typed: amount) else {
                    errors.add("amount[row\(index)]", "\(amount) is no amount (12 or 12.50).")
                    continue
                }
                share.cents = cents
            }
            if !percent.isEmpty {
                guard let value = TextRules.wholeNumber(percent) else {
                    errors.add("percent[row\(index)]", "A percentage is a whole number.")
                    continue
                }
                share.percent = value
            }
            split.append(share)
        }
        var payout = FeePlan.Payout()
        if values["table"] == "topThird" {
            payout.topThird = true
        } else {
            let parts = (values["percentages"] ?? "").split(whereSeparator: { $0 == "," || $0 == " " })
            let numbers = parts.compactMap { TextRules.wholeNumber($0) }
            if numbers.count != parts.count { errors.add("percentages", "List whole percentages, first place first: 50, 30, 20.") }
            payout.percentages = numbers
        }
        let under = (values["winnerTakesAllUnder"] ?? "").trimmingCharacters(in: .whitespaces)
        if !under.isEmpty {
            if let value = TextRules.wholeNumber(under) {
                payout.winnerTakesAllUnder = value
            } else {
                errors.add("winnerTakesAllUnder", "A field size is a whole number.")
            }
        }
        try errors.throwIfAny()
        return FeePlan(entry: entry, split: split, payout: payout)
    }
}

/// `/pots` (new pot), `/pots/{id}/contributions`, `/pots/{id}/payouts`, `/events/{id}/payouts`.
struct PotForm: Decodable, Sendable {
    var name: String?
    var kind: String?
    var seasonID: String?
    var cap: String?
    var overflowPotID: String?
}

struct ContributionForm: Decodable, Sendable {
    var amount: String?
    var eventID: String?
    var note: String?
}

struct PotPayoutForm: Decodable, Sendable {
    var eventID: String?
    /// Repeated: one per winner (an ace each); none, or "rollover", rolls the pot over.
    var playerID: [String]?
    /// A CTP pot's holes: one winner (or none) each.
    var holes: String?
}

struct PursePayoutForm: Decodable, Sendable {
    var playerID: String?
    var amount: String?
    var method: String?
}
