import Foundation
import GRDB
import HyzerCore

/// A person as the admin page lists them: the canonical player and the aliases merged into it.
public struct UserEntry: Sendable {
    public var player: Player
    public var aliases: [Player]
}

public struct AuditEntry: Sendable {
    public var at: Date
    public var actor: String
    public var player: String
    public var change: String
}

public enum AccountError: Error, Equatable, CustomStringConvertible {
    /// The change would leave the club without an enabled admin.
    case lastAdmin
    case handleTaken(String)
    /// The acting user may not manage this person's account (a coach and an admin, say).
    case notYourRole(actor: Role, player: String)
    /// Nobody removes their own account (another admin or coach can).
    case yourself

    public var description: String {
        switch self {
        case .lastAdmin: "The last enabled admin can be neither demoted nor disabled. Make someone else admin first."
        case .handleTaken(let handle): "The handle @\(handle) is already taken."
        case .notYourRole(let actor, let player): "A \(actor.rawValue) cannot change or remove \(player): ask an admin."
        case .yourself: "You cannot remove your own account: ask another coach or an admin."
        }
    }
}

extension DomainStore {
    // MARK: Saving players (the one place that writes the players table)

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

    // MARK: Identity

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

    // MARK: Cloud identity

    /// Players not yet associated with a cloud identity, with their handles.
    public func playersWithoutCloudIdentity() async throws -> [(id: UUID, handle: String)] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, handle FROM players WHERE cloudRecordName IS NULL ORDER BY id").compactMap { row in
                UUID(text: row["id"]).map { ($0, row["handle"]) }
            }
        }
    }

    /// Notes the cloud record name the cloud gave a player. Every device asks the cloud and
    /// gets the same name, so this is not an edit to sync: no new clock reading, nothing
    /// queued, and a concurrent edit elsewhere (a role change) can never be overwritten by it.
    public func associateCloudIdentity(_ id: UUID, recordName: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE players SET cloudRecordName = ? WHERE id = ? AND cloudRecordName IS NULL", arguments: [recordName, id.text])
        }
    }

    // MARK: Accounts

    /// A new player who can sign in (setup, invite, open sign-up, the CLI).
    /// A new player, with a password or without. `actor` is who adds them (nil: the command
    /// line, the demo seed): only roles they could grant (`checkGrants`).
    public func createAccount(_ valid: PlayerDraft.Valid, passwordHash: String?, actor: UUID? = nil) async throws -> Player {
        let player = Player(
            id: UUID(), displayName: valid.displayName, handle: valid.handle, role: valid.role, createdAt: now(), updatedAt: tick(),
            passwordHash: passwordHash, originDeviceID: deviceID
        )
        return try await write(queueing: { [(.player, $0.id.text, $0.updatedAt)] }) { db in
            try Self.checkGrants(valid.role, actor: actor, field: "role", db)
            if try PlayerRecord.filter(PlayerRecord.Columns.handle == valid.handle.value).fetchCount(db) > 0 {
                throw FieldErrors("handle", AccountError.handleTaken(valid.handle.value).description)
            }
            try Self.savePlayer(player, db)
            return player
        }
    }

    public func setPassword(of id: UUID, hash: String, actor: UUID?) async throws -> Player {
        try await updatePlayer(id, audit: (actor, "password set")) { player, _ in player.passwordHash = hash }
    }

    /// Changes a role. Refuses to leave the club without an enabled admin.
    public func changeRole(of id: UUID, to role: Role, actor: UUID?) async throws -> Player {
        try await updatePlayer(id, audit: (actor, "role → \(role.rawValue)")) { player, db in
            if player.role == .admin, role != .admin, !player.disabled, try Self.enabledAdmins(db) <= 1 { throw AccountError.lastAdmin }
            player.role = role
        }
    }

    public func setDisabled(_ id: UUID, _ disabled: Bool, actor: UUID?) async throws -> Player {
        try await updatePlayer(id, audit: (actor, disabled ? "disabled" : "enabled")) { player, db in
            if disabled, player.role == .admin, !player.disabled, try Self.enabledAdmins(db) <= 1 { throw AccountError.lastAdmin }
            player.disabled = disabled
        }
    }

    /// Everyone, canonical players first with their aliases, by name.
    public func users() async throws -> [UserEntry] {
        try await pool.read { db in
            let records = try PlayerRecord.filter(PlayerRecord.Columns.archived == false).order(
                PlayerRecord.Columns.displayName.collating(.localizedCaseInsensitiveCompare)
            ).fetchAll(db)
            var aliases: [String: [Player]] = [:]
            for record in records { if let canonical = record.aliasOf { aliases[canonical, default: []].append(try record.domain()) } }
            return try records.filter { $0.aliasOf == nil }.map { UserEntry(player: try $0.domain(), aliases: aliases[$0.id] ?? []) }
        }
    }

    public func auditLog(limit: Int = 50) async throws -> [AuditEntry] {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT a.at, COALESCE('@' || actor.handle, CASE WHEN a.actorID IS NULL THEN 'command line' ELSE 'a removed user' END) AS actor,
                           COALESCE('@' || p.handle, 'a removed player') AS player, a.change
                    FROM account_audit a LEFT JOIN players actor ON actor.id = a.actorID LEFT JOIN players p ON p.id = a.playerID
                    ORDER BY a.at DESC LIMIT ?
                    """, arguments: [limit])
            return rows.map { AuditEntry(at: $0["at"], actor: $0["actor"], player: $0["player"], change: $0["change"]) }
        }
    }
}
