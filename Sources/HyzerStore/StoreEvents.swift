import Foundation
import GRDB
import HyzerCore

/// Something that happened to the stores themselves, shown on the admin page.
public struct StoreEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// `sync.sqlite` was damaged and rebuilt.
        case rebuiltOperational = "rebuilt-sync"
        /// `domain.sqlite` was damaged and recovered from a backup and/or the cloud.
        case recoveredDomain = "recovered-domain"
        case restored
        /// A file beside the stores could not be read, and what was done instead.
        case unreadableFile = "unreadable-file"
    }

    public var at: Date
    public var kind: Kind
    public var detail: String

    public init(at: Date = Date(), kind: Kind, detail: String) {
        self.at = at
        self.kind = kind
        self.detail = detail
    }
}

extension OperationalStore {
    func note(_ event: StoreEvent) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO store_events (at, kind, detail) VALUES (?, ?, ?)", arguments: [event.at, event.kind.rawValue, event.detail])
        }
    }

    public func storeEvents(limit: Int = 10) async throws -> [StoreEvent] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM store_events ORDER BY id DESC LIMIT ?", arguments: [limit]).compactMap { row in
                StoreEvent.Kind(rawValue: row["kind"]).map { StoreEvent(at: row["at"], kind: $0, detail: row["detail"]) }
            }
        }
    }
}
