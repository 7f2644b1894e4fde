import Foundation

/// One amount a coach recorded in the club's books: money put into a pot by hand (negative:
/// a correction), a pot paid out to a night's winners or rolled over, or a night's purse
/// payout to a player (adjusted, then paid). Append-only and synced: a correction is a new
/// entry, and what counts is derived (`ClubBooks`), so two devices recording at once
/// converge. Who recorded it is `recordedBy`; on which device, `recordedAt.deviceID`.
public struct MoneyEntry: Identifiable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable {
        /// Into `potID` by hand (or out, negative: a correction).
        case contribution
        /// `cents` of `potID` to `playerID` for `eventID`; one decision's payouts share `batchID`.
        case potPayout
        /// Nobody won `potID` at `eventID`: its balance stays, or moves to `toPotID`.
        case rollover
        /// `playerID`'s payout from `eventID`'s `division` purse at `place`: an adjustment
        /// with no `method`, paid with one.
        case purse
        /// What `eventID`'s `division` purse leaves once every place is paid, moved to the
        /// club; the latest for a night and division counts (0 when a payout is undone).
        case settle
    }

    public enum Method: String, Codable, Hashable, Sendable, CaseIterable {
        case cash, credit
    }

    public var id: UUID
    public var kind: Kind
    public var cents: Int
    public var potID: UUID?
    public var toPotID: UUID?
    public var eventID: UUID?
    public var playerID: UUID?
    public var division: String?
    public var place: Int?
    public var method: Method?
    public var batchID: UUID?
    public var note: String?
    public var recordedBy: UUID?
    public var recordedAt: HLC

    public init(
        id: UUID, kind: Kind, cents: Int, potID: UUID? = nil, toPotID: UUID? = nil, eventID: UUID? = nil, playerID: UUID? = nil,
        division: String? = nil, place: Int? = nil, method: Method? = nil, batchID: UUID? = nil, note: String? = nil, recordedBy: UUID?,
        recordedAt: HLC
    ) {
        self.id = id
        self.kind = kind
        self.cents = cents
        self.potID = potID
        self.toPotID = toPotID
        self.eventID = eventID
        self.playerID = playerID
        self.division = division
        self.place = place
        self.method = method
        self.batchID = batchID
        self.note = note
        self.recordedBy = recordedBy
        self.recordedAt = recordedAt
    }

    /// Whether the fields fit the kind: what a device accepts from the cloud.
    public var isWellFormed: Bool {
        guard (-Money.maxCents...Money.maxCents).contains(cents) else { return false }
        switch kind {
        case .contribution: return potID != nil && cents != 0 && playerID == nil
        case .potPayout: return potID != nil && eventID != nil && playerID != nil && batchID != nil && cents >= 0
        case .rollover: return potID != nil && eventID != nil && batchID != nil && playerID == nil && cents >= 0 && toPotID != potID
        case .purse: return eventID != nil && playerID != nil && division != nil && (place ?? 0) >= 1 && cents >= 0
        case .settle: return eventID != nil && division != nil && playerID == nil && potID == nil
        }
    }
}

public struct MoneyEntryPayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var kind: String
    public var cents: Int
    public var potID: UUID?
    public var toPotID: UUID?
    public var eventID: UUID?
    public var playerID: UUID?
    public var division: String?
    public var place: Int?
    public var method: String?
    public var batchID: UUID?
    public var note: String?
    public var recordedBy: UUID?

    public init(_ entry: MoneyEntry) {
        id = entry.id
        kind = entry.kind.rawValue
        cents = entry.cents
        potID = entry.potID
        toPotID = entry.toPotID
        eventID = entry.eventID
        playerID = entry.playerID
        division = entry.division
        place = entry.place
        method = entry.method?.rawValue
        batchID = entry.batchID
        note = entry.note
        recordedBy = entry.recordedBy
    }

    public func entry(recordedAt: HLC) -> MoneyEntry? {
        guard let kind = MoneyEntry.Kind(rawValue: kind) else { return nil }
        var method: MoneyEntry.Method?
        if let raw = self.method {
            guard let known = MoneyEntry.Method(rawValue: raw) else { return nil }
            method = known
        }
        let entry = MoneyEntry(
            id: id, kind: kind, cents: cents, potID: potID, toPotID: toPotID, eventID: eventID, playerID: playerID, division: division,
            place: place, method: method, batchID: batchID, note: note, recordedBy: recordedBy, recordedAt: recordedAt)
        return entry.isWellFormed ? entry : nil
    }
}

extension MoneyEntry: SyncedRecord {
    public static let noun = "Money entry"
    public static let recordType = RecordType.moneyEntry
    public static let merge = MergeRule.insertOnly
    public static let applyOrder = 15
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { recordedAt }
    public var recordPayload: MoneyEntryPayload { MoneyEntryPayload(self) }
    public static func value(_ payload: MoneyEntryPayload, version: HLC) -> MoneyEntry? { payload.entry(recordedAt: version) }
}
