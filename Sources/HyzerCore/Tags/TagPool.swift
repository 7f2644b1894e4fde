import Foundation

/// A club's set of numbered bag tags (1…N, or the numbers it lists), optionally tied to a
/// season. Who holds which tag is never stored: `BagTags.derive` computes it from the pool's
/// moves and its completed tag rounds.
public struct TagPool: Identifiable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    /// Ascending, each once.
    public var numbers: [Int]
    public var seasonID: UUID?
    public var createdBy: UUID?
    public var createdAt: Date
    public var updatedAt: HLC
    /// Removed while rounds or moves refer to it: its history stays readable.
    public var archived = false

    public static let numberRange = 1...9_999
    public static let maxTags = 1_000

    public init(
        id: UUID, name: String, numbers: [Int], seasonID: UUID? = nil, createdBy: UUID? = nil, createdAt: Date, updatedAt: HLC
    ) {
        self.id = id
        self.name = name
        self.numbers = numbers
        self.seasonID = seasonID
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// A new pool's name and numbers as a coach gave them: `count` tags numbered 1…count, or
    /// the `listed` numbers (each once, within `numberRange`).
    public static func validated(name raw: String?, count: Int?, listed: [Int]?) throws(FieldErrors) -> (name: String, numbers: [Int]) {
        var errors = FieldErrors()
        let name = TextRules.name(raw, field: "name", label: "Pool name", maxLength: 80, into: &errors)
        var numbers: [Int] = []
        switch (count, listed) {
        case (let count?, nil):
            if (1...maxTags).contains(count) {
                numbers = Array(1...count)
            } else {
                errors.add("tags", "A pool has between 1 and \(maxTags) tags.")
            }
        case (nil, let listed?):
            if listed.isEmpty || listed.count > maxTags {
                errors.add("tags", "List between 1 and \(maxTags) tag numbers.")
            } else if let outside = listed.first(where: { !numberRange.contains($0) }) {
                errors.add("tags", "Tag \(outside) is outside \(numberRange.lowerBound)–\(numberRange.upperBound).")
            } else if Set(listed).count != listed.count {
                errors.add("tags", "Each tag number may be listed once.")
            } else {
                numbers = listed.sorted()
            }
        default:
            errors.add("tags", "Give the number of tags, or the list of their numbers.")
        }
        try errors.throwIfAny()
        return (name, numbers)
    }
}

public struct TagPoolPayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    public var numbers: [Int]
    public var seasonID: UUID?
    public var createdBy: UUID?
    public var createdAt: Date
    /// Absent unless removed.
    public var archived: Bool?

    public init(_ pool: TagPool) {
        id = pool.id
        name = pool.name
        numbers = pool.numbers
        seasonID = pool.seasonID
        createdBy = pool.createdBy
        createdAt = pool.createdAt
        archived = pool.archived ? true : nil
    }

    public func pool(updatedAt: HLC) -> TagPool? {
        guard !numbers.isEmpty, numbers.count <= TagPool.maxTags, numbers.allSatisfy(TagPool.numberRange.contains),
            numbers == Array(Set(numbers)).sorted()
        else { return nil }
        var pool = TagPool(
            id: id, name: name, numbers: numbers, seasonID: seasonID, createdBy: createdBy, createdAt: createdAt, updatedAt: updatedAt)
        pool.archived = archived ?? false
        return pool
    }
}

extension TagPool: SyncedRecord {
    public static let noun = "Tag pool"
    public static let recordType = RecordType.tagPool
    public static let merge = MergeRule.lastWriterWins
    public static let applyOrder = 11
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { updatedAt }
    public var recordPayload: TagPoolPayload { TagPoolPayload(self) }
    public static func value(_ payload: TagPoolPayload, version: HLC) -> TagPool? { payload.pool(updatedAt: version) }
}
