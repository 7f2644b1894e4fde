import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

// `/api/v1/seasons`, in the names DESIGN.md's contract gives them.

struct SeasonBody: Decodable {
    struct Points: Decodable {
        var rule: String?
        var table: [Int]?
        var pastTable: String?
        var participation: Int?
        var bestNights: Int?
        var countBack: Bool?
    }

    struct HandicapBody: Decodable {
        var method: String?
        var percent: Int?
        var minimumRounds: Int?
        var unhandicapped: String?
    }

    var name: String?
    var startsOn: String?
    var endsOn: String?
    var divisions: [String]?
    var placesBy: String?
    var points: Points?
    var handicap: HandicapBody?
    /// The season's fees (`PATCH` only): entry fees, their split into funds, the payout table.
    var fees: FeePlan?

    /// An edit: the season as it is, with what this body names changed (a points or handicap
    /// object replaces the season's whole).
    func draft(editing season: Season) -> SeasonDraft {
        var draft = SeasonDraft(season)
        if let name { draft.name = name }
        if let startsOn { draft.startsOn = startsOn }
        if let endsOn { draft.endsOn = endsOn }
        if let divisions { draft.divisions = divisions }
        if let placesBy { draft.placesBy = placesBy }
        if let points {
            draft.rule = points.rule
            draft.table = points.table
            draft.pastTable = points.pastTable
            draft.participation = points.participation
            draft.bestNights = points.bestNights
            draft.countBack = points.countBack
        }
        if let handicap {
            draft.handicap = handicap.method ?? "missing"
            draft.percent = handicap.percent
            draft.minimumRounds = handicap.minimumRounds
            draft.unhandicapped = handicap.unhandicapped
        }
        return draft
    }

    /// Names nothing but fees (or nothing at all).
    var onlyFees: Bool {
        name == nil && startsOn == nil && endsOn == nil && divisions == nil && placesBy == nil && points == nil && handicap == nil
    }

    var draft: SeasonDraft {
        SeasonDraft(
            name: name, startsOn: startsOn, endsOn: endsOn, divisions: divisions ?? [], placesBy: placesBy, rule: points?.rule,
            table: points?.table, pastTable: points?.pastTable, participation: points?.participation, bestNights: points?.bestNights,
            // A handicap object names its method: `{}` is a mistake, not "none".
            countBack: points?.countBack, handicap: handicap.map { $0.method ?? "missing" }, percent: handicap?.percent,
            minimumRounds: handicap?.minimumRounds, unhandicapped: handicap?.unhandicapped)
    }
}

struct SeasonResponse: ResponseEncodable {
    struct Points: Encodable {
        var rule: String
        @NullWhenNone var table: [Int]?
        @NullWhenNone var pastTable: String?
        var participation: Int
        @NullWhenNone var bestNights: Int?
        var countBack: Bool
    }

    struct HandicapItem: Encodable {
        var method: String
        var percent: Int
        var minimumRounds: Int
        var unhandicapped: String
    }

    struct Night: Encodable {
        var id: String
        var name: String
    }

    var id: String
    var name: String
    @NullWhenNone var startsOn: String?
    @NullWhenNone var endsOn: String?
    var divisions: [String]
    var placesBy: String
    var points: Points
    @NullWhenNone var handicap: HandicapItem?
    /// The rules in words, as the season page shows them.
    var rules: String
    var nights: [Night]
    @NullWhenNone var fees: FeePlan?

    init(_ season: Season, nights: [Event] = []) {
        fees = season.fees
        id = Format.id(season.id)
        name = season.name
        startsOn = season.startsOn
        endsOn = season.endsOn
        divisions = season.divisions
        placesBy = season.points.placesBy.rawValue
        switch season.points.places {
        case .fieldSize:
            points = Points(
                rule: "fieldSize", participation: season.points.participation, bestNights: season.points.bestNights,
                countBack: season.points.countBack)
        case .table(let table, let pastEnd):
            points = Points(
                rule: "table", table: table, pastTable: pastEnd.rawValue, participation: season.points.participation,
                bestNights: season.points.bestNights, countBack: season.points.countBack)
        }
        handicap = season.handicap.map {
            HandicapItem(
                method: $0.kind.rawValue, percent: $0.percent, minimumRounds: $0.minimumRounds, unhandicapped: $0.unhandicapped.rawValue)
        }
        rules = ([season.points.description] + (season.handicap.map { [$0.description] } ?? [])).joined(separator: " ")
        self.nights = nights.map { Night(id: Format.id($0.id), name: $0.name) }
    }
}

struct SeasonListResponse: ResponseEncodable {
    var seasons: [SeasonResponse]
}

struct SeasonStandingsResponse: ResponseEncodable {
    struct NightItem: Encodable {
        var eventID: String
        /// `null` for a DNF.
        @NullWhenNone var place: Int?
        var points: Int
        var counted: Bool
    }

    struct Entry: Encodable {
        var position: String
        var playerID: String
        var displayName: String
        var points: Int
        var nightsCounted: Int
        var nights: [NightItem]
    }

    struct DivisionItem: Encodable {
        var name: String
        var standings: [Entry]
    }

    var seasonID: String
    var divisions: [DivisionItem]

    init(_ snapshot: SeasonSnapshot) {
        seasonID = Format.id(snapshot.season.id)
        divisions = snapshot.standings.divisions.map { division in
            DivisionItem(
                name: division.name,
                standings: division.entries.map { entry in
                    Entry(
                        position: entry.position, playerID: Format.id(entry.playerID), displayName: entry.displayName, points: entry.points,
                        nightsCounted: entry.nightsCounted,
                        nights: entry.nights.map {
                            NightItem(eventID: Format.id($0.eventID), place: $0.place, points: $0.points, counted: $0.counted)
                        })
                })
        }
    }
}

struct HandicapHistoryResponse: ResponseEncodable {
    struct Value: Encodable {
        /// To one decimal, as shown; `strokes`: the whole throws taken off an 18-hole round.
        var handicap: Double
        var strokes: Int
        var method: String
        var roundIDs: [String]

        init(_ handicap: Handicap) {
            self.handicap = handicap.value
            strokes = handicap.strokes
            method = handicap.method.rawValue
            roundIDs = handicap.roundIDs.map(Format.id)
        }
    }

    struct Night: Encodable {
        var seasonID: String
        var eventID: String
        var handicap: Double
        var strokes: Int
        var method: String
        var roundIDs: [String]
    }

    var playerID: String
    /// What the player's next league night would use; `null` before they have enough rounds.
    @NullWhenNone var current: Value?
    var history: [Night]

    init(playerID: UUID, current: Handicap?, history: [(season: Season, eventID: UUID, handicap: Handicap)]) {
        self.playerID = Format.id(playerID)
        self.current = current.map(Value.init)
        self.history = history.map { entry in
            let value = Value(entry.handicap)
            return Night(
                seasonID: Format.id(entry.season.id), eventID: Format.id(entry.eventID), handicap: value.handicap, strokes: value.strokes,
                method: value.method, roundIDs: value.roundIDs)
        }
    }
}

struct CheckInBody: Decodable {
    struct WalkUp: Decodable {
        var displayName: String?
        var handle: String?
    }

    var playerID: String?
    var walkUp: WalkUp?
    var division: String?
    var paid: Bool?
    /// The amount paid, in cents (0: not paid); `paid` alone records the season's fee.
    var paidCents: Int?

    var who: DomainStore.CheckInWho {
        get throws(FieldErrors) {
            switch (playerID, walkUp) {
            case (let id?, nil):
                guard let uuid = UUID(text: id) else { throw FieldErrors("playerID", "playerID is a player's id.") }
                return .player(uuid)
            case (nil, let walkUp?):
                return .walkUp(displayName: walkUp.displayName ?? "", handle: walkUp.handle)
            default:
                throw FieldErrors("playerID", "Send a playerID, or a walkUp with a displayName (one of the two).")
            }
        }
    }
}

struct CheckInResponse: ResponseEncodable {
    var eventID: String
    var playerID: String
    var displayName: String
    var handle: String
    var division: String
    /// Who paid is the coaches' business (and each player's own): the public sees the count.
    var paid: Bool?

    init(_ entry: DomainStore.CheckInEntry, viewer: Identity?) {
        eventID = Format.id(entry.checkIn.eventID)
        playerID = Format.id(entry.checkIn.playerID)
        displayName = entry.displayName
        handle = entry.handle
        division = entry.checkIn.division
        paid = CheckIn.showsFee(of: entry.checkIn.playerID, to: viewer) ? entry.checkIn.paid : nil
    }
}

struct CheckInListResponse: ResponseEncodable {
    var eventID: String
    var checkins: [CheckInResponse]
    /// How many have paid their entry fee.
    var paid: Int
}

/// `GET /api/v1/events/{id}/fees`: the night's fee ledger, oldest first.
struct FeeLedgerResponse: ResponseEncodable {
    struct Entry: Encodable {
        var id: String
        var playerID: String
        var displayName: String
        var paid: Bool
        @NullWhenNone var recordedBy: String?
        @NullWhenNone var recordedByName: String?
        var at: Date
    }

    var eventID: String
    var payments: [Entry]

    init(eventID: UUID, ledger: [(payment: FeePayment, playerName: String, recordedByName: String?)]) {
        self.eventID = Format.id(eventID)
        payments = ledger.map {
            Entry(
                id: Format.id($0.payment.id), playerID: Format.id($0.payment.playerID), displayName: $0.playerName, paid: $0.payment.paid,
                recordedBy: $0.payment.recordedBy.map(Format.id), recordedByName: $0.recordedByName,
                at: Date(timeIntervalSince1970: Double($0.payment.recordedAt.wallMillis) / 1000))
        }
    }
}
