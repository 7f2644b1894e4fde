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
    // MARK: Players

    /// Renames a player, changes their handle or their usual division ("" for none). A handle
    /// another person has is refused.
    /// `pdgaNumber` and `email`: nil leaves them, `.some(nil)` clears them. Saving what the
    /// player already has writes nothing (no audit line, no sync).
    public func editPlayer(
        _ id: UUID, displayName: String?, handle: Handle?, division: String? = nil, pdgaNumber: Int?? = nil, email: String?? = nil, actor: UUID?
    ) async throws -> Player {
        let before = try await player(id)
        let change = [
            displayName.flatMap { name in before.flatMap { $0.displayName == name ? nil : "name “\($0.displayName)” → “\(name)”" } },
            handle.flatMap { handle in before.flatMap { $0.handle == handle ? nil : "handle @\($0.handle.value) → @\(handle.value)" } },
            division.flatMap { division in
                before.flatMap {
                    $0.division == division ? nil : "division \($0.division.isEmpty ? "none" : $0.division) → \(division.isEmpty ? "none" : division)"
                }
            },
            pdgaNumber.flatMap { number in
                before.flatMap { $0.pdgaNumber == number ? nil : "PDGA number \(number.map(String.init) ?? "none")" }
            },
            email.flatMap { email in before.flatMap { $0.email == email ? nil : "email" } },
        ].compactMap { $0 }.joined(separator: ", ")
        if change.isEmpty, let before {
            // Checked as a change would be, so nobody learns more from a no-op than from an edit.
            _ = try await pool.read { db in try Self.checkEditable(before, actor: actor, db) }
            return before
        }
        return try await updatePlayer(id, audit: (actor, change)) { player, db in
            try Self.checkEditable(player, actor: actor, db)
            if let handle, handle != player.handle {
                let taken =
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM players WHERE handle = ? AND id != ? AND COALESCE(aliasOf, '') != ?",
                        arguments: [handle.value, player.id.text, player.id.text]) ?? 0
                if taken > 0 { throw FieldErrors("handle", AccountError.handleTaken(handle.value).description) }
                player.handle = handle
            }
            if let displayName { player.displayName = displayName }
            if let division { player.division = division }
            if let pdgaNumber { player.pdgaNumber = pdgaNumber }
            if let email { player.email = email }
        }
    }

    // MARK: Courses

    /// Changes a course's name, pars or distances. A corrected par or distance applies to every
    /// round played on the course (it was a mistake, not a new layout); the number of holes can
    /// change only while no round on the course has a score (otherwise make a new course).
    public func editCourse(_ id: UUID, name: String?, holes: [Hole]?, actor: UUID?) async throws -> Course {
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { [(.course, $0.id.text, $0.updatedAt)] }) { db in
            guard let record = try CourseRecord.fetchOne(db, key: id.text), !record.archived else { throw StoreError.notFound("Course") }
            var course = try Self.course(record, db)
            var changes: [String] = []
            if let name, name != course.name {
                changes.append("name “\(course.name)” → “\(name)”")
                course.name = name
            }
            if let holes, holes != course.holes {
                if holes.map(\.number) != course.holes.map(\.number) {
                    let scored =
                        try Int.fetchOne(
                            db,
                            sql: """
                                SELECT COUNT(*) FROM score_events WHERE roundID IN (SELECT id FROM rounds WHERE courseID = ?)
                                """, arguments: [id.text]) ?? 0
                    if scored > 0 {
                        throw LeagueRejection.conflict(
                            """
                            Rounds on \(course.name) have scores for its \(course.holes.count) holes: its pars and distances can be corrected, \
                            but not its number of holes. Make a new course for the new layout.
                            """)
                    }
                    let numbers = Set(holes.map(\.number))
                    let cards = try Row.fetchAll(db, sql: "SELECT id, cards FROM rounds WHERE courseID = ?", arguments: [id.text])
                        .flatMap { try StoredValue.json($0["cards"], [Card].self, "rounds.cards", of: $0["id"]) }
                    if let card = cards.first(where: { !numbers.contains($0.startingHole) }) {
                        throw LeagueRejection.conflict(
                            "\(card.name) of a round on \(course.name) starts on hole \(card.startingHole): change its cards before the number of holes."
                        )
                    }
                    changes.append("\(course.holes.count) → \(holes.count) holes")
                }
                let parChanges = zip(course.holes, holes).filter { $0.par != $1.par }.map { "hole \($0.number) par \($0.par) → \($1.par)" }
                changes += parChanges
                if parChanges.isEmpty && holes.count == course.holes.count && zip(course.holes, holes).contains(where: { $0.distance != $1.distance })
                {
                    changes.append("distances")
                }
                course.holes = holes
            }
            course.updatedAt = stamp
            try Self.saveCourse(course, db)
            // Every board on the course shows the corrected pars.
            try db.execute(sql: "UPDATE rounds SET version = version + 1 WHERE courseID = ?", arguments: [id.text])
            if !changes.isEmpty { try Self.audit(.course, id, actor: actor, at: moment, changes.joined(separator: ", "), db) }
            return course
        }
    }

    static func saveCourse(_ course: Course, _ db: Database) throws {
        let id = course.id.text
        try CourseRecord(id: id, name: course.name, createdAt: course.createdAt, updatedAt: course.updatedAt.description, archived: course.archived)
            .save(db)
        try db.execute(sql: "DELETE FROM course_holes WHERE courseID = ?", arguments: [id])
        for hole in course.holes {
            try HoleRecord(courseID: id, number: hole.number, par: hole.par, distance: hole.distance).insert(db)
        }
    }

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

    // MARK: Rounds

    public func renameRound(_ id: UUID, to name: String, actor: UUID?) async throws -> RoundSnapshot {
        try await changeRound(id, actor: actor) { round, _, _ in
            let before = round.name
            round.name = name
            return "name “\(before)” → “\(name)”"
        }
    }

    /// Adds a player who arrived late to a round that is not over, with a division when its
    /// event has divisions, and optionally to a card. A withdrawn player who returns is back in.
    /// On a season's league night they are checked in too (the night's list and fees are its
    /// record of who played), unless they already are.
    public func addPlayer(_ playerID: UUID, division: String?, card cardID: UUID?, to roundID: UUID, actor: UUID?) async throws -> RoundSnapshot {
        let snapshot = try await addToRound(playerID, division: division, card: cardID, to: roundID, actor: actor)
        if let event = snapshot.event, event.seasonID != nil {
            let canonical = try await pool.read { db in try Self.canonicalID(playerID, db) }
            if try await !checkIns(of: event.id).contains(where: { $0.checkIn.playerID == canonical }) {
                _ = try await checkIn(.player(canonical), division: snapshot.round.divisions[canonical], paid: nil, at: event.id, by: nil)
            }
        }
        return snapshot
    }

    private func addToRound(_ playerID: UUID, division: String?, card cardID: UUID?, to roundID: UUID, actor: UUID?) async throws -> RoundSnapshot {
        try await changeRound(roundID, actor: actor) { round, snapshot, db in
            guard round.status != .completed else {
                throw LeagueRejection.conflict("\(round.name) is completed: reopen it to add a player.")
            }
            let canonical = try Self.canonicalID(playerID, db)
            guard let player = try PlayerRecord.fetchOne(db, key: canonical.text)?.domain(), !player.archived else {
                throw LeagueRejection.invalid(FieldErrors("playerID", "That player does not exist."))
            }
            if round.playerIDs.contains(canonical) && !round.withdrawn.contains(canonical) {
                throw LeagueRejection.conflict("\(player.displayName) is already in \(round.name).")
            }
            guard round.playerIDs.count < Round.playerCountRange.upperBound || round.playerIDs.contains(canonical) else {
                throw LeagueRejection.conflict("A round can have at most \(Round.playerCountRange.upperBound) players.")
            }
            let divisions = snapshot.event?.divisions ?? []
            // Without a division given, the one a check-in would choose: the night's own check-in,
            // else their usual one, else the one they last played this season.
            var text = (division ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty, let event = snapshot.event {
                let checkedIn = try CheckInRecord.fetchOne(db, key: CheckIn.recordID(event: event.id, player: canonical))?.domain()
                let last = try Self.lastDivision(of: canonical, season: event.seasonID, before: event.id, db)
                // quiet: a division it cannot choose is none, and the guard below asks for one.
                text = (try? Self.division(nil, for: player, existing: checkedIn?.cancelled == false ? checkedIn : nil, last: last, of: event)) ?? ""
            }
            if !divisions.isEmpty {
                guard !text.isEmpty else {
                    throw LeagueRejection.invalid(
                        FieldErrors("division", "Choose \(player.displayName)'s division: \(divisions.joined(separator: ", "))."))
                }
                guard let valid = Division.validated(text), divisions.contains(valid) else {
                    throw LeagueRejection.invalid(
                        FieldErrors(
                            "division", "\(text) is not a division of \(snapshot.event?.name ?? "the event") (\(divisions.joined(separator: ", "))).")
                    )
                }
                round.divisions[canonical] = valid
            } else if !text.isEmpty {
                throw LeagueRejection.invalid(
                    FieldErrors(
                        "division",
                        snapshot.event.map { "\($0.name) has no divisions: its rounds are one field." }
                            ?? "This round is not part of an event with divisions."))
            }
            round.withdrawn.remove(canonical)
            if !round.playerIDs.contains(canonical) { round.playerIDs.append(canonical) }
            if let cardID {
                guard let index = round.cards.firstIndex(where: { $0.id == cardID }) else {
                    throw LeagueRejection.invalid(FieldErrors("cardID", "That card is not in \(round.name)."))
                }
                for other in round.cards.indices { round.cards[other].playerIDs.removeAll { $0 == canonical } }
                guard round.cards[index].playerIDs.count < CardRules.sizeLimit else {
                    throw LeagueRejection.invalid(
                        FieldErrors(
                            "cardID", "\(round.cards[index].name) is full: at most \(CardRules.sizeLimit) play together. Choose another card."))
                }
                round.cards[index].playerIDs.append(canonical)
            }
            return "added \(player.displayName)\(round.divisions[canonical].map { " (\($0))" } ?? "")"
        }
    }

    /// Takes a player out of a round. One with scores stays, withdrawn (did not finish, kept as
    /// history); one without leaves the round and its cards.
    public func withdraw(_ playerID: UUID, from roundID: UUID, actor: UUID?) async throws -> RoundSnapshot {
        try await changeRound(roundID, actor: actor) { round, snapshot, db in
            let canonical = try Self.canonicalID(playerID, db)
            let name = snapshot.playerNames[canonical] ?? "That player"
            guard round.playerIDs.contains(canonical) else { throw StoreError.notFound("Player in this round") }
            guard round.status != .completed else { throw LeagueRejection.conflict("\(round.name) is completed: reopen it to withdraw a player.") }
            if snapshot.events.contains(where: { $0.playerID == canonical }) {
                guard !round.withdrawn.contains(canonical) else { throw LeagueRejection.conflict("\(name) has already withdrawn.") }
                round.withdrawn.insert(canonical)
                return "withdrew \(name) (kept with their scores)"
            }
            guard round.playerIDs.count > 1 else {
                throw LeagueRejection.conflict("\(name) is the round's only player: remove the round instead.")
            }
            round.playerIDs.removeAll { $0 == canonical }
            round.divisions[canonical] = nil
            for index in round.cards.indices { round.cards[index].playerIDs.removeAll { $0 == canonical } }
            return "removed \(name) (no scores)"
        }
    }

    /// A completed round is active again: whoever it made did-not-finish is back in play (that
    /// was read from the status, never written as scores).
    public func reopen(_ roundID: UUID, actor: UUID?) async throws -> RoundSnapshot {
        try await changeRound(roundID, actor: actor) { round, _, _ in
            guard round.status == .completed else {
                throw LeagueRejection.conflict("Only a completed round can be reopened; \(round.name) is \(round.status.rawValue).")
            }
            round.status = .active
            round.completedAt = nil
            return "reopened"
        }
    }

    /// Changes a stored round in one transaction with a new clock reading, queues it and logs
    /// what `change` says it did.
    func changeRound(_ id: UUID, actor: UUID?, _ change: @escaping @Sendable (inout Round, RoundSnapshot, Database) throws -> String) async throws
        -> RoundSnapshot
    {
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { [(.round, $0.round.id.text, $0.round.updatedAt)] }) { db in
            var snapshot = try Self.snapshot(id, db)
            guard var round = try RoundRecord.round(id.text, db), !round.archived else { throw StoreError.notFound("Round") }
            let line = try change(&round, snapshot, db)
            round.updatedAt = stamp
            try Self.saveRound(round, db)
            try Self.audit(.round, id, actor: actor, at: moment, line, db)
            try self.freezeHandicaps(of: id, db)
            snapshot = try Self.snapshot(id, db)
            return snapshot
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
        case .round: referenced = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM score_events WHERE roundID = ?)", arguments: [id]) ?? true
        case .season: referenced = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM events WHERE seasonID = ?)", arguments: [id]) ?? true
        case .scoreEvent, .signature, .clubSettings, .checkIn, .frozenHandicap, .feePayment: throw StoreError.notFound("Record")
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
