import Foundation
import GRDB
import HyzerCore

// Players: creating, reading, editing and saving them (the one place that writes the players table), and who stands behind an id.
extension DomainStore {
    /// A player without an account, added by `actor` (nil: the command line, the demo seed),
    /// who may add only the roles they could grant.
    public func createPlayer(_ valid: PlayerDraft.Valid, by actor: UUID?) async throws -> Player {
        try await createAccount(valid, passwordHash: nil, actor: actor)
    }

    /// Players to choose from: one per person (aliases are left out).
    public func players() async throws -> [Player] {
        try await pool.read { db in
            try PlayerRecord.filter(PlayerRecord.Columns.aliasOf == nil && PlayerRecord.Columns.archived == false)
                .order(PlayerRecord.Columns.displayName.collating(.localizedCaseInsensitiveCompare)).fetchAll(db).map { try $0.domain() }
        }
    }

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

    /// Saves a player and re-derives the aliases of its handle(s), so that players sharing a
    /// handle always resolve to the same canonical one on every device.
    static func savePlayer(_ player: Player, _ db: Database) throws {
        var player = player
        let stored = try Row.fetchOne(db, sql: "SELECT handle, cloudRecordName FROM players WHERE id = ?", arguments: [player.id.text])
        let previous: String? = stored?["handle"]
        // The cloud identity is associated on each device; a record that arrives without one
        // keeps the one this device already has.
        if player.cloudRecordName == nil { player.cloudRecordName = stored?["cloudRecordName"] }
        try PlayerRecord(player).save(db)
        // The boards that show this player show their new name (and the cached ones are stale).
        try db.execute(
            sql: "UPDATE rounds SET version = version + 1 WHERE id IN (SELECT roundID FROM round_players WHERE playerID = ?)",
            arguments: [player.id.text])
        try reconcileAliases(player.handle.value, db)
        if let previous, previous != player.handle.value { try reconcileAliases(previous, db) }
    }

    private static func reconcileAliases(_ handle: String, _ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, aliasOf FROM players WHERE handle = ?", arguments: [handle])
        let ids = rows.compactMap { UUID(text: $0["id"]) }
        guard let canonical = IdentityMerge.canonical(of: ids)?.text else { return }
        let changed = rows.contains { row in
            let alias: String? = row["aliasOf"]
            return (row["id"] as String) == canonical ? alias != nil : alias != canonical
        }
        guard changed else { return }
        try db.execute(
            sql: "UPDATE players SET aliasOf = CASE WHEN id = ? THEN NULL ELSE ? END WHERE handle = ?", arguments: [canonical, canonical, handle])
        // Boards that show these players are now attributed differently: republish them.
        let marks = databaseQuestionMarks(count: ids.count)
        let texts = ids.map(\.text)
        try db.execute(
            sql: """
                UPDATE rounds SET version = version + 1 WHERE id IN (
                    SELECT roundID FROM round_players WHERE playerID IN (\(marks))
                    UNION SELECT roundID FROM score_events WHERE playerID IN (\(marks)))
                """, arguments: StatementArguments(texts + texts))
    }

    /// Alias id → canonical id, for every merged identity.
    static func aliasMap(_ db: Database) throws -> [String: String] {
        var map: [String: String] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT id, aliasOf FROM players WHERE aliasOf IS NOT NULL"))
        while let row = try rows.next() { map[row["id"]] = row["aliasOf"] }
        return map
    }

    static func canonicalID(_ id: UUID, _ db: Database) throws -> UUID {
        // Asked once per score inside the group commit: a prepared statement, kept.
        let statement = try db.cachedStatement(sql: "SELECT aliasOf FROM players WHERE id = ?")
        let alias = try String.fetchOne(statement, arguments: [id.text])
        return alias.flatMap(UUID.init(text:)) ?? id
    }

    /// Refuses (as a field error on `field`) when `actor` (nil: the command line) may not make
    /// a player of `role`: a coach makes athletes and coaches, an admin anyone, an athlete
    /// athletes. An actor who is not a player here may make nobody.
    static func checkGrants(_ role: Role, actor: UUID?, field: String, naming handle: String? = nil, _ db: Database) throws {
        guard let actor else { return }
        guard let record = try PlayerRecord.fetchOne(db, key: try canonicalID(actor, db).text) else {
            throw FieldErrors(field, "Only a player of this club can add players.")
        }
        let creator: Role = try StoredValue.raw(record.role, "players.role", of: record.id)
        guard creator.grantable.contains(role) else {
            let who = handle.map { " (@\($0))" } ?? ""
            throw FieldErrors(
                field,
                "A \(creator.rawValue) can add \(creator.grantable.map(\.rawValue).joined(separator: " or ")) players, not \(role.rawValue) players\(who)."
            )
        }
    }

    /// Refuses when `actor` (nil: the command line) may not manage `player`: only roles the
    /// actor could grant (a coach manages athletes and coaches, an admin everyone).
    static func checkManages(_ player: Player, actor: UUID?, _ db: Database) throws {
        guard let actor, let record = try PlayerRecord.fetchOne(db, key: try canonicalID(actor, db).text),
            let role = Role(rawValue: record.role)
        else { return }
        if !role.grantable.contains(player.role) {
            throw AccountError.notYourRole(actor: role, player: "\(player.displayName) (\(player.role.rawValue))")
        }
    }

    /// What every edit of a player's details needs, whichever route makes it: the player is
    /// not removed, and the actor may manage their role.
    static func checkEditable(_ player: Player, actor: UUID?, _ db: Database) throws {
        guard !player.archived else { throw StoreError.notFound("Player") }
        try checkManages(player, actor: actor, db)
    }

    /// Whether a player is a coach or an admin now: whose corrections decide a hole
    /// (`ScoreRules.decides`). Read only when a card-mate's entry meets another's correction.
    static func isCoach(_ id: UUID, _ db: Database) throws -> Bool {
        let role = try String.fetchOne(
            db.cachedStatement(sql: "SELECT role FROM players WHERE id = ?"), arguments: [try canonicalID(id, db).text])
        return role.flatMap(Role.init(rawValue:))?.includes(.coach) ?? false
    }

    /// Changes one player in a transaction, with a new clock reading, and queues it.
    func updatePlayer(_ id: UUID, audit: (actor: UUID?, change: String)? = nil, _ change: @escaping @Sendable (inout Player, Database) throws -> Void)
        async throws -> Player
    {
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { [(.player, $0.id.text, $0.updatedAt)] }) { db in
            let canonical = try Self.canonicalID(id, db)
            guard var player = try PlayerRecord.fetchOne(db, key: canonical.text)?.domain() else { throw StoreError.notFound("Player") }
            try change(&player, db)
            player.updatedAt = stamp
            try Self.savePlayer(player, db)
            if let audit {
                try db.execute(
                    sql: "INSERT INTO account_audit (id, at, actorID, playerID, change) VALUES (?, ?, ?, ?, ?)",
                    arguments: [UUID().text, moment, audit.actor?.text, player.id.text, audit.change])
            }
            return player
        }
    }

    /// The canonical player behind an id (an alias resolves to its canonical player).
    public func player(_ id: UUID) async throws -> Player? {
        try await pool.read { db in
            try PlayerRecord.fetchOne(db, key: try Self.canonicalID(id, db).text)?.domain()
        }
    }

    /// The canonical player with this handle, for signing in.
    public func player(handle: Handle) async throws -> Player? {
        try await pool.read { db in
            try PlayerRecord.filter(
                PlayerRecord.Columns.handle == handle.value && PlayerRecord.Columns.aliasOf == nil && PlayerRecord.Columns.archived == false
            ).fetchOne(db)?
            .domain()
        }
    }

    /// Who a session or token belongs to now: nil when the player is gone or disabled. Asked
    /// on every signed-in request, and kept until a player changes: a commit that changes one
    /// (a role, disabled, a merge; made here or synced) moves `playerChanges` before it
    /// returns, so no request after it sees the identity as it was.
    public func identity(of id: UUID) async throws -> Identity? {
        let (kept, count) = identities.lookup(id)
        if let kept { return kept }
        let identity = try await player(id).flatMap { player in
            player.disabled || player.archived
                ? nil : Identity(playerID: player.id, handle: player.handle.value, displayName: player.displayName, role: player.role)
        }
        identities.keep(identity, for: id, readAt: count)
        return identity
    }

    public func hasEnabledAdmin() async throws -> Bool {
        try await pool.read { db in try Self.enabledAdmins(db) > 0 }
    }

    static func enabledAdmins(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM players WHERE role = 'admin' AND disabled = 0 AND archived = 0 AND aliasOf IS NULL") ?? 0
    }
}
