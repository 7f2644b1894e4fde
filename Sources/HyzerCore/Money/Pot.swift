import Foundation

/// A pot the club keeps across nights: an ace pot, a closest-to-the-pin pot, or another.
/// Its balance is never stored: `ClubBooks` adds up its ledger. Mutable (name, cap), merged
/// last-writer-wins.
public struct Pot: Identifiable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        case ace, ctp, other

        public var label: String {
            switch self {
            case .ace: "Ace pot"
            case .ctp: "Closest to the pin"
            case .other: "Other"
            }
        }
    }

    public var id: UUID
    public var name: String
    public var kind: Kind
    public var seasonID: UUID?
    /// Past this balance, contributions go to `overflowPotID` (or the club).
    public var capCents: Int?
    public var overflowPotID: UUID?
    public var createdBy: UUID?
    public var createdAt: Date
    public var updatedAt: HLC
    /// Pots are never deleted while their ledger refers to them: archived.
    public var archived = false

    public init(
        id: UUID, name: String, kind: Kind, seasonID: UUID? = nil, capCents: Int? = nil, overflowPotID: UUID? = nil, createdBy: UUID? = nil,
        createdAt: Date, updatedAt: HLC
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.seasonID = seasonID
        self.capCents = capCents
        self.overflowPotID = overflowPotID
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// `POST /api/v1/pots` as typed, checked. `pots` are the club's pots (an overflow pot is
    /// one of them, and never this pot's own overflow in a loop).
    public static func validated(
        id: UUID, name raw: String?, kind rawKind: String?, capCents: Int?, overflowPotID: UUID?, pots: [Pot]
    ) throws(FieldErrors) -> (name: String, kind: Kind) {
        var errors = FieldErrors()
        let name = TextRules.name(raw, field: "name", label: "Pot name", maxLength: 80, into: &errors)
        let kind = Kind(rawValue: TextRules.cleaned(rawKind))
        if kind == nil { errors.add("kind", "A pot is an \"ace\" pot, a \"ctp\" pot or \"other\".") }
        if let capCents, !(1...Money.maxCents).contains(capCents) { errors.add("capCents", "A cap is whole cents from 1 to \(Money.maxCents).") }
        if let overflowPotID {
            if capCents == nil { errors.add("overflowPotID", "An overflow pot goes with a cap.") }
            var next: UUID? = overflowPotID
            var seen: Set<UUID> = [id]
            while let current = next {
                guard let pot = pots.first(where: { $0.id == current }) else {
                    errors.add("overflowPotID", "There is no such pot.")
                    break
                }
                guard seen.insert(current).inserted else {
                    errors.add("overflowPotID", "The overflow would come back to this pot.")
                    break
                }
                next = pot.overflowPotID
            }
        }
        try errors.throwIfAny()
        return (name, kind ?? .other)
    }
}

public struct PotPayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    public var kind: String
    public var seasonID: UUID?
    public var capCents: Int?
    public var overflowPotID: UUID?
    public var createdBy: UUID?
    public var createdAt: Date
    public var archived: Bool?

    public init(_ pot: Pot) {
        id = pot.id
        name = pot.name
        kind = pot.kind.rawValue
        seasonID = pot.seasonID
        capCents = pot.capCents
        overflowPotID = pot.overflowPotID
        createdBy = pot.createdBy
        createdAt = pot.createdAt
        archived = pot.archived ? true : nil
    }

    public func pot(updatedAt: HLC) -> Pot? {
        guard let kind = Pot.Kind(rawValue: kind), !name.isEmpty, capCents.map({ $0 > 0 }) ?? true, overflowPotID != id else { return nil }
        var pot = Pot(
            id: id, name: name, kind: kind, seasonID: seasonID, capCents: capCents, overflowPotID: overflowPotID, createdBy: createdBy,
            createdAt: createdAt, updatedAt: updatedAt)
        pot.archived = archived ?? false
        return pot
    }
}

extension Pot: SyncedRecord {
    public static let noun = "Pot"
    public static let recordType = RecordType.pot
    public static let merge = MergeRule.lastWriterWins
    public static let applyOrder = 14
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { updatedAt }
    public var recordPayload: PotPayload { PotPayload(self) }
    public static func value(_ payload: PotPayload, version: HLC) -> Pot? { payload.pot(updatedAt: version) }
}
