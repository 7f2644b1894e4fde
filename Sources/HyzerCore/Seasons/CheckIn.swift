import Foundation

/// A player checked in for a league night, in a division, with their entry fee paid or not
/// (recorded, never charged). One per player and night: checking in again on another device
/// is the same record, merged last-writer-wins.
public struct CheckIn: Hashable, Sendable {
    public var eventID: UUID
    public var playerID: UUID
    public var division: String
    public var paid: Bool
    public var checkedInBy: UUID?
    public var checkedInAt: Date
    public var updatedAt: HLC
    /// Undone by a coach (or the player): kept as a record, so the undo syncs like the check-in.
    public var cancelled = false

    public init(eventID: UUID, playerID: UUID, division: String, paid: Bool, checkedInBy: UUID?, checkedInAt: Date, updatedAt: HLC) {
        self.eventID = eventID
        self.playerID = playerID
        self.division = division
        self.paid = paid
        self.checkedInBy = checkedInBy
        self.checkedInAt = checkedInAt
        self.updatedAt = updatedAt
    }

    /// The record's id: the night and the player, so two devices checking the same player in
    /// make one record.
    public static func recordID(event: UUID, player: UUID) -> String { "\(event.lowercasedText)/\(player.lowercasedText)" }
    public var recordID: String { Self.recordID(event: eventID, player: playerID) }

    /// Whether `viewer` may see if this player paid: coaches keep the fees, each player sees
    /// their own; everyone else sees how many paid, not who.
    public static func showsFee(of playerID: UUID, to viewer: Identity?) -> Bool {
        viewer.map { $0.role.includes(.coach) || $0.playerID == playerID } ?? false
    }
}

public struct CheckInPayload: Codable, Hashable, Sendable {
    public var eventID: UUID
    public var playerID: UUID
    public var division: String
    public var paid: Bool
    public var checkedInBy: UUID?
    public var checkedInAt: Date
    /// Absent unless the check-in was undone.
    public var cancelled: Bool?

    public init(_ checkIn: CheckIn) {
        cancelled = checkIn.cancelled ? true : nil
        eventID = checkIn.eventID
        playerID = checkIn.playerID
        division = checkIn.division
        paid = checkIn.paid
        checkedInBy = checkIn.checkedInBy
        checkedInAt = checkIn.checkedInAt
    }

    public func checkIn(updatedAt: HLC) -> CheckIn? {
        guard division.isEmpty || Division.validated(division) == division else { return nil }
        var checkIn = CheckIn(
            eventID: eventID, playerID: playerID, division: division, paid: paid, checkedInBy: checkedInBy, checkedInAt: checkedInAt,
            updatedAt: updatedAt)
        checkIn.cancelled = cancelled ?? false
        return checkIn
    }
}

/// One entry of a night's fee ledger: who recorded a player's entry fee as paid or not, and
/// when. Append-only and synced (the check-in holds the current state): the audit of money
/// survives on every device, whichever desk took it.
public struct FeePayment: Identifiable, Hashable, Sendable {
    public var id: UUID
    public var eventID: UUID
    public var playerID: UUID
    public var paid: Bool
    public var recordedBy: UUID?
    public var recordedAt: HLC
    /// The amount paid, when it was recorded (payments before money were only paid or not).
    public var cents: Int?
    /// Where the amount went, as the season's plan split it when it was paid: a later change
    /// of plan never rewrites a night already paid.
    public var funds: [FundAmount] = []
    /// The division it was paid for (its purse).
    public var division: String?
    /// The payout table in force when it was paid: the night's purse is paid by it, so a
    /// later change of the season's table never rewrites a night already played.
    public var payout: FeePlan.Payout?

    public init(id: UUID, eventID: UUID, playerID: UUID, paid: Bool, recordedBy: UUID?, recordedAt: HLC) {
        self.id = id
        self.eventID = eventID
        self.playerID = playerID
        self.paid = paid
        self.recordedBy = recordedBy
        self.recordedAt = recordedAt
    }
}

public struct FeePaymentPayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var eventID: UUID
    public var playerID: UUID
    public var paid: Bool
    public var recordedBy: UUID?
    /// Absent in payments recorded before amounts were.
    public var cents: Int?
    public var funds: [FundAmount]?
    public var division: String?
    public var payout: FeePlan.Payout?

    public init(_ payment: FeePayment) {
        id = payment.id
        eventID = payment.eventID
        playerID = payment.playerID
        paid = payment.paid
        recordedBy = payment.recordedBy
        cents = payment.cents
        funds = payment.funds.isEmpty ? nil : payment.funds
        division = payment.division
        payout = payment.payout
    }

    public func payment(recordedAt: HLC) -> FeePayment? {
        let funds = funds ?? []
        // Each part checked before they are added up: a hostile record cannot overflow the sum.
        guard (0...Money.maxCents).contains(cents ?? 0), funds.count <= FeePlan.maxShares + 1,
            funds.allSatisfy({ (0...Money.maxCents).contains($0.cents) && $0.target != nil }), funds.reduce(0, { $0 + $1.cents }) <= (cents ?? 0)
        else { return nil }
        var payment = FeePayment(id: id, eventID: eventID, playerID: playerID, paid: paid, recordedBy: recordedBy, recordedAt: recordedAt)
        payment.cents = cents
        payment.funds = funds
        payment.division = division
        payment.payout = payout
        return payment
    }
}

extension CheckIn: SyncedRecord {
    public static let noun = "Check-in"
    public static let recordType = RecordType.checkIn
    public static let merge = MergeRule.lastWriterWins
    public static let applyOrder = 5
    public var recordVersion: HLC { updatedAt }
    public var recordPayload: CheckInPayload { CheckInPayload(self) }
    public static func value(_ payload: CheckInPayload, version: HLC) -> CheckIn? { payload.checkIn(updatedAt: version) }
}

extension FeePayment: SyncedRecord {
    public static let noun = "Fee payment"
    public static let recordType = RecordType.feePayment
    public static let merge = MergeRule.insertOnly
    public static let applyOrder = 10
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { recordedAt }
    public var recordPayload: FeePaymentPayload { FeePaymentPayload(self) }
    public static func value(_ payload: FeePaymentPayload, version: HLC) -> FeePayment? { payload.payment(recordedAt: version) }
}
