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
