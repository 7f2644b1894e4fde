import Crypto
import Foundation
import GRDB
import HyzerCore

/// An API token as the admin page lists it; the token itself is shown once and never stored.
public struct APITokenEntry: Sendable {
    public var id: UUID
    public var playerID: UUID
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var revoked: Bool

    public init(id: UUID, playerID: UUID, name: String, createdAt: Date, lastUsedAt: Date?, revoked: Bool) {
        self.id = id
        self.playerID = playerID
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revoked = revoked
    }
}

/// A single-use link: the first admin's setup, or an invite to sign up (maybe to claim an
/// existing player).
public struct OneTimeLink: Sendable {
    public enum Kind: String, Sendable { case setup, invite }
    public var kind: Kind
    public var role: Role
    public var playerID: UUID?
    public var createdBy: UUID?
    public var expiresAt: Date

    public init(kind: Kind, role: Role, playerID: UUID? = nil, createdBy: UUID? = nil, expiresAt: Date) {
        self.kind = kind
        self.role = role
        self.playerID = playerID
        self.createdBy = createdBy
        self.expiresAt = expiresAt
    }
}

public struct InviteEntry: Sendable {
    public var id: UUID
    public var role: Role
    public var playerID: UUID?
    public var createdAt: Date
    public var expiresAt: Date
    public var usedAt: Date?
}

/// Secrets handed to people (session ids, tokens, links) are random and only their SHA-256
/// is stored: a copy of `sync.sqlite` opens no account.
public enum Secret {
    public static func make() -> String {
        // 32 bytes from the system's CSPRNG in one call (byte by byte was a syscall each),
        // written as unpadded base64url in one pass: a new browser gets one per page view.
        SymmetricKey(size: .bits256).withUnsafeBytes { base64URL($0) }
    }

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func base64URL(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: (bytes.count * 4 + 2) / 3) { output in
            var written = 0
            var index = 0
            while index < bytes.count {
                let chunk = min(3, bytes.count - index)
                var value = UInt32(bytes[index]) << 16
                if chunk > 1 { value |= UInt32(bytes[index + 1]) << 8 }
                if chunk > 2 { value |= UInt32(bytes[index + 2]) }
                for position in 0...chunk {
                    output[written] = alphabet[Int((value >> UInt32(18 - 6 * position)) & 63)]
                    written += 1
                }
                index += 3
            }
            return written
        }
    }

    public static func digest(_ secret: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 64) { output in
            var written = 0
            for byte in SHA256.hash(data: Data(secret.utf8)) {
                output[written] = hex[Int(byte >> 4)]
                output[written + 1] = hex[Int(byte & 15)]
                written += 2
            }
            return written
        }
    }
}

extension OperationalStore {
    // MARK: Sessions (the storage behind hummingbird-auth's session middleware)
    // Keys are the cookie values: only their SHA-256 is stored, so neither a copy of
    // sync.sqlite nor a backup of it holds a usable session.

    /// Kept in memory while no commit of this process touches the sessions table
    /// (`sessionChanges`) and no other process has written the file (`walPath`'s stamp): a
    /// signed-in page otherwise paid a read transaction for every request.
    public func sessionValue(key: String, now: Date = Date()) async throws -> (value: Data, expiresAt: Date?)? {
        let digest = Secret.digest(key)
        let wal = FileStamp.of(walPath)
        var (kept, count) = sessionValues.lookup(digest)
        if let stored = kept, wal == nil || stored.wal != wal { kept = nil }
        if kept == nil {
            kept = try await pool.read { db -> StoredSession? in
                guard
                    let row = try Row.fetchOne(
                        db.cachedStatement(sql: "SELECT value, expiresAt FROM sessions WHERE key = ?"), arguments: [digest])
                else { return nil }
                return StoredSession(
                    value: row["value"], expiresAt: (row["expiresAt"] as Double?).map(Date.init(timeIntervalSince1970:)), wal: wal)
            }
        }
        guard let stored = kept else { return nil }
        sessionValues.keep(stored, for: digest, readAt: count)
        if let expires = stored.expiresAt, expires <= now { return nil }
        return (stored.value, stored.expiresAt)
    }

    /// Stores a session. `playerID` is kept beside it for "sign out everywhere".
    public func setSession(key: String, value: Data, playerID: UUID?, expiresAt: Date?, onlyIfAbsent: Bool) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM sessions WHERE expiresAt IS NOT NULL AND expiresAt <= ?", arguments: [Date().timeIntervalSince1970])
            let verb = onlyIfAbsent ? "INSERT OR IGNORE" : "INSERT OR REPLACE"
            try db.execute(
                sql: "\(verb) INTO sessions (key, value, playerID, expiresAt) VALUES (?, ?, ?, ?)",
                arguments: [Secret.digest(key), value, playerID?.text, expiresAt?.timeIntervalSince1970])
            return db.changesCount > 0
        }
    }

    public func removeSession(key: String) async throws {
        try await pool.write { db in try db.execute(sql: "DELETE FROM sessions WHERE key = ?", arguments: [Secret.digest(key)]) }
    }

    /// Ends every session of a player on this device. Returns how many ended.
    @discardableResult
    public func removeSessions(of playerID: UUID) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM sessions WHERE playerID = ?", arguments: [playerID.text])
            return db.changesCount
        }
    }

    // MARK: API tokens

    /// Issues a token for a player and returns it; only its digest is stored.
    public func issueToken(for playerID: UUID, name: String, now: Date = Date()) async throws -> String {
        let token = "hyz_" + Secret.make()
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO api_tokens (id, playerID, name, tokenHash, createdAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [UUID().text, playerID.text, name, Secret.digest(token), now])
        }
        return token
    }

    /// The player a live token belongs to; notes its use to the minute (nothing to read or
    /// write for a token used within the last minute, so a busy client costs no query per
    /// request). Known tokens are kept until a token changes: a revocation moves
    /// `tokenChanges` before it returns, so no request after it is let in. Unknown ones are
    /// not kept (a guesser would only fill memory).
    public func tokenOwner(_ token: String, now: Date = Date()) async throws -> UUID? {
        let digest = Secret.digest(token)
        var (kept, count) = tokenOwners.lookup(digest)
        if kept == nil {
            kept = try await pool.read { db -> TokenUse? in
                guard
                    let row = try Row.fetchOne(
                        db, sql: "SELECT id, playerID, lastUsedAt FROM api_tokens WHERE tokenHash = ? AND revokedAt IS NULL",
                        arguments: [digest])
                else { return nil }
                return TokenUse(id: row["id"], playerID: row["playerID"], lastUsed: row["lastUsedAt"])
            }
        }
        guard var use = kept else { return nil }
        if use.lastUsed.map({ now.timeIntervalSince($0) >= Self.tokenUseResolution || $0 > now }) ?? true {
            let id = use.id
            try await pool.write { db in
                try db.execute(sql: "UPDATE api_tokens SET lastUsedAt = ? WHERE id = ?", arguments: [now, id])
            }
            use.lastUsed = now
        }
        tokenOwners.keep(use, for: digest, readAt: count)
        return UUID(text: use.playerID)
    }

    static let tokenUseResolution: TimeInterval = 60

    public func tokens() async throws -> [APITokenEntry] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM api_tokens ORDER BY createdAt DESC").compactMap { row in
                guard let id = UUID(text: row["id"]), let player = UUID(text: row["playerID"]) else { return nil }
                return APITokenEntry(
                    id: id, playerID: player, name: row["name"], createdAt: row["createdAt"], lastUsedAt: row["lastUsedAt"],
                    revoked: (row["revokedAt"] as Date?) != nil)
            }
        }
    }

    public func revokeToken(_ id: UUID, now: Date = Date()) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE api_tokens SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL", arguments: [now, id.text])
        }
    }

    // MARK: One-time links

    /// A new link; answers its token (only its digest is kept). An invite is made by someone
    /// of role `grantedBy` (nil: the command line), for a role they could grant.
    public func createLink(_ link: OneTimeLink, grantedBy inviter: Role?, now: Date = Date()) async throws -> String {
        if link.kind == .invite, let inviter, !inviter.grantable.contains(link.role) {
            throw FieldErrors("role", "Choose one of: \(inviter.grantable.map(\.rawValue).joined(separator: ", ")).")
        }
        let token = Secret.make()
        try await pool.write { db in
            try db.execute(
                sql:
                    "INSERT INTO one_time_links (id, tokenHash, kind, role, playerID, createdBy, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    UUID().text, Secret.digest(token), link.kind.rawValue, link.role.rawValue, link.playerID?.text,
                    link.createdBy?.text, now, link.expiresAt,
                ])
        }
        return token
    }

    /// The link a token opens, if it is of this kind, unused and not expired.
    public func link(_ token: String, kind: OneTimeLink.Kind, now: Date = Date()) async throws -> OneTimeLink? {
        try await pool.read { db in
            try Self.liveLink(token, kind, now, db)
        }
    }

    /// Uses a link up, atomically: of two requests with one link, one wins.
    public func consumeLink(_ token: String, kind: OneTimeLink.Kind, now: Date = Date()) async throws -> OneTimeLink? {
        try await pool.write { db in
            guard let link = try Self.liveLink(token, kind, now, db) else { return nil }
            try db.execute(sql: "UPDATE one_time_links SET usedAt = ? WHERE tokenHash = ?", arguments: [now, Secret.digest(token)])
            return link
        }
    }

    private static func liveLink(_ token: String, _ kind: OneTimeLink.Kind, _ now: Date, _ db: Database) throws -> OneTimeLink? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM one_time_links WHERE tokenHash = ? AND kind = ? AND usedAt IS NULL AND expiresAt > ?",
                arguments: [Secret.digest(token), kind.rawValue, now])
        else { return nil }
        return OneTimeLink(
            kind: kind, role: try StoredValue.raw(row["role"], "one_time_links.role", of: row["id"] ?? "a link"),
            playerID: (row["playerID"] as String?).flatMap(UUID.init(text:)),
            createdBy: (row["createdBy"] as String?).flatMap(UUID.init(text:)), expiresAt: row["expiresAt"])
    }

    /// Ends every open invite for a player (once the profile is claimed).
    public func voidInvites(for playerID: UUID, now: Date = Date()) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE one_time_links SET usedAt = ? WHERE playerID = ? AND usedAt IS NULL", arguments: [now, playerID.text])
        }
    }

    /// Closes an open invite for one of `roles`: its link opens nothing from now on. False when
    /// there was no such open invite.
    public func revokeInvite(_ id: UUID, roles: [Role], now: Date = Date()) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE one_time_links SET expiresAt = ? WHERE id = ? AND kind = 'invite' AND usedAt IS NULL AND expiresAt > ?
                    AND role IN (\(databaseQuestionMarks(count: max(roles.count, 1))))
                    """,
                arguments: StatementArguments([now, id.text, now] as [any DatabaseValueConvertible] + (roles.isEmpty ? [""] : roles.map(\.rawValue))))
            return db.changesCount > 0
        }
    }

    public func invites() async throws -> [InviteEntry] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM one_time_links WHERE kind = 'invite' ORDER BY createdAt DESC LIMIT 50").map { row in
                let id = try StoredValue.uuid(row["id"], "one_time_links.id")
                return InviteEntry(
                    id: id, role: try StoredValue.raw(row["role"], "one_time_links.role", of: id.text),
                    playerID: (row["playerID"] as String?).flatMap(UUID.init(text:)),
                    createdAt: row["createdAt"], expiresAt: row["expiresAt"], usedAt: row["usedAt"])
            }
        }
    }

    // MARK: Sign-ins

    public func noteSignIn(_ playerID: UUID, at: Date = Date()) async throws {
        try await pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO sign_ins (playerID, at) VALUES (?, ?)", arguments: [playerID.text, at])
        }
    }

    public func lastSignIns() async throws -> [UUID: Date] {
        try await pool.read { db in
            var result: [UUID: Date] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT playerID, at FROM sign_ins") {
                if let id = UUID(text: row["playerID"]) { result[id] = row["at"] }
            }
            return result
        }
    }
}
