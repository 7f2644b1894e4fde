import Foundation
import GRDB
import HyzerCore

/// A synced record type as the domain store keeps it, declared beside its GRDB record
/// (Records/): its table and version column, how a push reads it and how a pull applies it.
protocol StoredRecord: SyncedRecord {
    /// The table of its rows, keyed by the record's id.
    static var table: String { get }
    /// The column holding its version, an HLC as text.
    static var versionColumn: String { get }
    /// The value stored under `id`, as a push sends it; nil when there is none.
    static func stored(_ id: String, _ db: Database) throws -> Self?
    /// Applies this version from the cloud under the type's merge rule, in the pull's
    /// transaction; true when it changed something. The rounds whose boards it changes go
    /// into `result`.
    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool
}

extension RecordType {
    /// The type's declaration as the store keeps it. Every declaration conforms in Records/;
    /// `RecordRegistryTests` asks it of every type, so one without fails there, not in use.
    var stored: any StoredRecord.Type {
        guard let stored = declaration as? any StoredRecord.Type else {
            preconditionFailure("\(declaration) is not a StoredRecord: add its conformance in Sources/HyzerStore/Records")
        }
        return stored
    }
}

/// Where each synced record type keeps its id and its version: what the clock on start,
/// the reconcile and the removals read.
enum VersionedTables {
    static let all: [(type: RecordType, table: String, version: String)] = RecordType.allCases.map {
        ($0, $0.stored.table, $0.stored.versionColumn)
    }
}

extension RemoteApplyResult {
    /// Adds the rounds `filter` picks: their boards show a record that changed, so their kept
    /// boards and live pages must follow.
    mutating func addRounds(where filter: some SQLSpecificExpressible, _ db: Database) throws {
        let ids = try String.fetchAll(db, RoundRecord.filter(filter).select(RoundRecord.Columns.id))
        rounds.formUnion(ids.compactMap(UUID.init(text:)))
    }
}

extension StoredRecord {
    /// Last writer wins: true when the stored version (`local`) or a removal at least as new
    /// already says as much, and the incoming one changes nothing.
    static func isNotNewer(_ version: HLC, than local: String?, _ db: Database, id: String) throws -> Bool {
        if let local, let stamp = HLC(local), stamp >= version { return true }
        return try removable && DomainStore.buried(recordType, id, olderThan: version, db)
    }
}
