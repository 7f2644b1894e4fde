import Foundation
import GRDB
import GRDBSQLite
import HyzerCore

// One record type per table. Ids are stored as lower-case UUID text (never GRDB's blob
// default) so that raw SQL, the sqlite3 shell and other devices all see the same values.

extension UUID {
    var text: String { lowercasedText }
}

enum StoredValue {
    static func uuid(_ text: String, _ column: String) throws -> UUID {
        guard let value = UUID(text: text) else { throw StoreError.corrupt("\(column) is not a UUID: \(text)") }
        return value
    }

    static func hlc(_ text: String, _ column: String) throws -> HLC {
        guard let value = HLC(text) else { throw StoreError.corrupt("\(column) is not an HLC: \(text)") }
        return value
    }

    /// An enum stored as its raw text: a value this version does not know is an error naming
    /// the record, never a default that would hand out a role or a status nobody chose.
    static func raw<T: RawRepresentable>(_ text: String, _ column: String, of record: String) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: text) else { throw StoreError.corrupt("\(column) of \(record) is not a known value: \(text)") }
        return value
    }

    /// A JSON column: unreadable JSON is an error naming the record, never an empty value.
    static func json<T: Decodable>(_ text: String, _ type: T.Type, _ column: String, of record: String) throws -> T {
        do {
            return try RecordCoding.decode(type, Data(text.utf8))
        } catch {
            throw StoreError.corrupt("\(column) of \(record) is not readable JSON: \(error)")
        }
    }
}

// Column names come from each record's coding keys (as GRDB's demo does), so a renamed or
// dropped property is a compile error in every query instead of a runtime one. Each record,
// its columns and its synced type's `StoredRecord` conformance live in Records/.
