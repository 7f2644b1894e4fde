import Foundation
import GRDB
import HyzerCore

/// What removing a record did: deleted it (nothing referred to it), or archived it (results,
/// scores or rounds still refer to it, so it stays as history).
public enum Removal: String, Sendable, Equatable {
    case deleted, archived
}

/// One line of the change log on /admin: edits and removals of players, courses, events and
/// rounds, with account changes.
public struct ChangeEntry: Sendable {
    public var at: Date
    public var actor: String
    public var record: String
    public var change: String
}

extension DomainStore {
    // MARK: Events

    /// Renames an event, dates it ("" clears the date), changes its divisions and opens or
    /// closes its check-in, all or none. A division a player of its rounds is in cannot go
    /// (move them first).
    public func editEvent(
        _ id: UUID, name: String?, playedOn: String? = nil, divisions: [String]?, checkInOpen: Bool? = nil, actor: UUID?
    ) async throws -> Event {
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { [(.event, $0.id.text, $0.updatedAt)] }) { db in
            guard var event = try EventRecord.fetchOne(db, key: id.text)?.domain(), !event.archived else { throw StoreError.notFound("Event") }
            var changes: [String] = []
            if let name, name != event.name {
                changes.append("name “\(event.name)” → “\(name)”")
                event.name = name
            }
            if let playedOn, playedOn != (event.playedOn ?? "") {
                changes.append("date \(event.playedOn ?? "none") → \(playedOn.isEmpty ? "none" : playedOn)")
                event.playedOn = playedOn.isEmpty ? nil : playedOn
            }
            if let divisions, divisions != event.divisions {
                let used = Set(
                    try String.fetchAll(
                        db,
                        sql: """
                            SELECT DISTINCT p.division FROM round_players p JOIN rounds r ON r.id = p.roundID WHERE r.eventID = ? AND p.division != ''
                            """, arguments: [id.text]))
                let dropped = used.subtracting(divisions).sorted()
                if !dropped.isEmpty {
                    throw LeagueRejection.invalid(
                        FieldErrors(
                            "divisions",
                            "Players of \(event.name)'s rounds are in \(dropped.joined(separator: ", ")): keep \(dropped.count == 1 ? "it" : "them")."
                        ))
                }
                let roundsWithout =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM round_players p JOIN rounds r ON r.id = p.roundID WHERE r.eventID = ? AND p.division = ''
                            """, arguments: [id.text]) ?? 0
                if event.divisions.isEmpty, !divisions.isEmpty, roundsWithout > 0 {
                    throw LeagueRejection.invalid(
                        FieldErrors("divisions", "\(event.name)'s rounds are one field already: its players have no divisions to go into."))
                }
                changes.append(
                    "divisions \(event.divisions.isEmpty ? "none" : event.divisions.joined(separator: " ")) → \(divisions.isEmpty ? "none" : divisions.joined(separator: " "))"
                )
                event.divisions = divisions
            }
            if let open = checkInOpen {
                if open, try Self.nightOver(id, db) { throw LeagueRejection.conflict("\(event.name) is over: its check-in cannot open again.") }
                event.checkInOpenedAt = open ? moment : nil
                changes.append(open ? "opened check-in" : "closed check-in")
            }
            event.updatedAt = stamp
            try EventRecord(event).update(db)
            try Self.bumpRounds(of: id, db)
            if !changes.isEmpty { try Self.audit(.event, id, actor: actor, at: moment, changes.joined(separator: ", "), db) }
            return event
        }
    }

    // MARK: Removing

    /// Removes a player, course, event or round: deleted when nothing refers to it (a tombstone
    /// carries the removal to other devices), archived when something does.
    public func remove(_ type: RecordType, _ id: UUID, actor: UUID?) async throws -> Removal {
        guard type.declaration.removable else { throw StoreError.notFound("Record") }
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { _ in [(type, id.text, stamp)] }) { db in
            try Self.remove(type, id.text, at: stamp, actor: actor, moment: moment, db)
        }
    }

    static func remove(_ type: RecordType, _ id: String, at stamp: HLC, actor: UUID?, moment: Date, _ db: Database) throws -> Removal {
        guard type.declaration.removable else { throw StoreError.notFound("Record") }
        let table = try Self.table(of: type)
        guard let row = try Row.fetchOne(db, sql: "SELECT archived FROM \(table) WHERE id = ?", arguments: [id]) else {
            throw StoreError.notFound(type.noun)
        }
        let referenced: Bool
        switch type {
        case .player:
            referenced =
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM round_players WHERE playerID = ?1) OR EXISTS (SELECT 1 FROM score_events WHERE playerID = ?1 OR reportedBy = ?1)
                            OR EXISTS (SELECT 1 FROM signatures WHERE playerID = ?1 OR signedBy = ?1)
                            OR EXISTS (SELECT 1 FROM checkins WHERE playerID = ?1 OR checkedInBy = ?1)
                            OR EXISTS (SELECT 1 FROM fee_payments WHERE playerID = ?1 OR recordedBy = ?1)
                        """, arguments: [id]) ?? true
            if let player = try PlayerRecord.fetchOne(db, key: id)?.domain() {
                if actor.map({ $0.text == id }) == true { throw AccountError.yourself }
                try checkManages(player, actor: actor, db)
                if player.role == .admin, !player.disabled, !player.archived, try enabledAdmins(db) <= 1 { throw AccountError.lastAdmin }
            }
        case .course: referenced = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM rounds WHERE courseID = ?)", arguments: [id]) ?? true
        case .event:
            // A night's check-ins and fee ledger are its books: kept, like its rounds' scores.
            referenced =
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM rounds WHERE eventID = ?1) OR EXISTS (SELECT 1 FROM checkins WHERE eventID = ?1)
                            OR EXISTS (SELECT 1 FROM fee_payments WHERE eventID = ?1)
                        """, arguments: [id]) ?? true
        case .round:
            referenced =
                try Bool.fetchOne(
                    db,
                    sql: "SELECT EXISTS (SELECT 1 FROM score_events WHERE roundID = ?1) OR EXISTS (SELECT 1 FROM mulligan_sales WHERE roundID = ?1)",
                    arguments: [id]) ?? true
        case .season: referenced = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM events WHERE seasonID = ?)", arguments: [id]) ?? true
        case .scoreEvent, .signature, .clubSettings, .checkIn, .frozenHandicap, .feePayment, .tagPool, .tagMove, .tagChallenge, .pot, .moneyEntry,
            .bracket, .mulliganSale:
            throw StoreError.notFound("Record")
        }
        if referenced {
            if (row["archived"] as Bool?) == true { return .archived }
            try db.execute(sql: "UPDATE \(table) SET archived = 1, updatedAt = ? WHERE id = ?", arguments: [stamp.description, id])
            if type == .round { try db.execute(sql: "UPDATE rounds SET version = version + 1 WHERE id = ?", arguments: [id]) }
            try audit(type, id, actor: actor, at: moment, "archived", db)
            return .archived
        }
        let name =
            try String.fetchOne(db, sql: "SELECT \(type == .player ? "displayName" : "name") FROM \(table) WHERE id = ?", arguments: [id]) ?? ""
        try db.execute(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [id])
        try db.execute(
            sql: "INSERT OR REPLACE INTO tombstones (recordType, recordID, removedAt) VALUES (?, ?, ?)",
            arguments: [type.rawValue, id, stamp.description])
        try audit(type, id, actor: actor, at: moment, name.isEmpty ? "deleted" : "deleted “\(name)”", db)
        return .deleted
    }

    /// The demo that `--demo` seeds, removed in one transaction: its rounds (on the course
    /// "Maple Hill DGC", named "Tuesday League", made by the seed, which names no creator), the
    /// course unless the club has played other rounds on it, and the six demo players who never
    /// got a password and play in no other round. Returns how many records were removed.
    public func removeDemoData(actor: UUID?) async throws -> Int {
        let moment = now()
        return try await write(queueing: { $0 }) { db -> [(RecordType, String, HLC)] in
            var removed: [(RecordType, String, HLC)] = []
            for (type, ids) in try Self.demoRecords(db) {
                for id in ids {
                    let stamp = self.tick()
                    _ = try DomainStore.remove(type, id, at: stamp, actor: actor, moment: moment, db)
                    removed.append((type, id, stamp))
                }
            }
            return removed
        }.count
    }

    /// Whether there is demo data left to remove (the /admin button shows only then).
    public func hasDemoData() async throws -> Bool {
        try await pool.read { db in try Self.demoRecords(db).contains { !$0.1.isEmpty } }
    }

    /// The demo's records not removed yet, in the order they are removed.
    static func demoRecords(_ db: Database) throws -> [(RecordType, [String])] {
        let demoRound = "r.name = :round AND r.createdBy IS NULL AND r.courseID IN (SELECT id FROM courses WHERE name = :course)"
        let names: [String: (any DatabaseValueConvertible)?] = ["round": DemoSeed.roundName, "course": DemoSeed.courseName]
        var records: [(RecordType, [String])] = []
        records.append(
            (
                .round,
                try String.fetchAll(db, sql: "SELECT r.id FROM rounds r WHERE r.archived = 0 AND \(demoRound)", arguments: StatementArguments(names))
            ))
        records.append(
            (
                .course,
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT c.id FROM courses c WHERE c.name = :course AND c.archived = 0
                        AND NOT EXISTS (SELECT 1 FROM rounds r WHERE r.courseID = c.id AND NOT (\(demoRound)))
                        """, arguments: StatementArguments(names))
            ))
        for (name, handle) in DemoSeed.people {
            var arguments = names
            arguments["handle"] = handle
            arguments["name"] = name
            records.append(
                (
                    .player,
                    try String.fetchAll(
                        db,
                        sql: """
                            SELECT p.id FROM players p WHERE p.handle = :handle AND p.displayName = :name AND p.passwordHash IS NULL
                            AND p.archived = 0 AND p.aliasOf IS NULL
                            AND NOT EXISTS (SELECT 1 FROM round_players rp JOIN rounds r ON r.id = rp.roundID WHERE rp.playerID = p.id AND NOT (\(demoRound)))
                            """, arguments: StatementArguments(arguments))
                ))
        }
        return records
    }

    static func table(of type: RecordType) throws -> String {
        guard let table = VersionedTables.all.first(where: { $0.type == type })?.table else { throw StoreError.notFound("Record") }
        return table
    }

    static func audit(_ type: RecordType, _ id: UUID, actor: UUID?, at moment: Date, _ change: String, _ db: Database) throws {
        try audit(type, id.text, actor: actor, at: moment, change, db)
    }

    static func audit(_ type: RecordType, _ id: String, actor: UUID?, at moment: Date, _ change: String, _ db: Database) throws {
        if type == .player {
            try db.execute(
                sql: "INSERT INTO account_audit (id, at, actorID, playerID, change) VALUES (?, ?, ?, ?, ?)",
                arguments: [UUID().text, moment, actor?.text, id, change])
        } else {
            try db.execute(
                sql: "INSERT INTO change_audit (id, at, actorID, recordType, recordID, change) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [UUID().text, moment, actor?.text, type.rawValue, id, change])
        }
    }

    /// Edits and removals of courses, events and rounds, newest first, named as they are now
    /// (or by id once deleted).
    public func changeLog(limit: Int = 50) async throws -> [ChangeEntry] {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT a.at, COALESCE('@' || actor.handle, CASE WHEN a.actorID IS NULL THEN 'command line' ELSE 'a removed user' END) AS actor, a.recordType,
                           COALESCE(c.name, e.name, r.name, a.recordID) AS record, a.change
                    FROM change_audit a LEFT JOIN players actor ON actor.id = a.actorID
                    LEFT JOIN courses c ON a.recordType = 'course' AND c.id = a.recordID
                    LEFT JOIN events e ON a.recordType = 'event' AND e.id = a.recordID
                    LEFT JOIN rounds r ON a.recordType = 'round' AND r.id = a.recordID
                    ORDER BY a.at DESC LIMIT ?
                    """, arguments: [limit])
            return rows.map { row in
                // A type this build does not know (a dismissed unreadable record) by its own name.
                let type = RecordType(rawValue: row["recordType"])?.noun.lowercased() ?? (row["recordType"] as String)
                return ChangeEntry(at: row["at"], actor: row["actor"], record: "\(type) \(row["record"] as String)", change: row["change"])
            }
        }
    }
}
