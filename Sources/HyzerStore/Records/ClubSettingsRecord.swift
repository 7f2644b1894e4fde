import Foundation
import GRDB
import HyzerCore

/// The club settings: one row (`club_settings`), its payload kept whole, merged field by field.
extension ClubSettingsPayload: StoredRecord {
    static let table = "club_settings"
    static let versionColumn = "updatedAt"

    static func stored(_ id: String, _ db: Database) throws -> ClubSettingsPayload? { try DomainStore.settings(db) }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        let stored = try DomainStore.settings(db)
        let merged = stored.map { $0.merged(with: self) } ?? self
        guard merged != stored else { return false }
        try DomainStore.writeSettings(merged, db)
        return true
    }
}
