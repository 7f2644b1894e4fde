import Foundation
import HummingbirdBcrypt
import HyzerCore
import HyzerStore
import Synchronization

/// Account operations that need a password hash: used by the sign-in, setup and join pages
/// and by `hyzer admin` on the command line, on the same stores.
public struct Accounts: Sendable {
    let stores: Stores
    /// Where sessions and API tokens are kept: this device's, or the cluster's.
    let credentials: any CredentialStore
    /// bcrypt's work factor: 12 by default (about a quarter second here); tests use less.
    let cost: UInt8

    /// How long a setup link or an invite stays usable.
    static let setupLifetime: TimeInterval = 24 * 3600
    static let inviteLifetime: TimeInterval = 7 * 24 * 3600

    /// Every bcrypt hash and check of this process goes through here (see `PasswordWork`).
    let work: PasswordWork

    public init(stores: Stores, credentials: (any CredentialStore)? = nil, cost: UInt8 = 12) {
        self.init(stores: stores, credentials: credentials, cost: cost, work: PasswordWork())
    }

    init(stores: Stores, credentials: (any CredentialStore)? = nil, cost: UInt8, work: PasswordWork) {
        self.stores = stores
        self.credentials = credentials ?? stores.operational
        self.cost = cost
        self.work = work
    }

    func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await work.run { Bcrypt.hash(password, cost: cost) }
    }

    /// The player a handle names, if any.
    func player(handle: String) async throws -> Player? {
        guard case .success(let parsed) = Handle.parse(handle) else { return nil }
        return try await stores.domain.player(handle: parsed)
    }

    /// Whether a password opens this player (found by `player(handle:)`); nil when it does
    /// not. A handle that does not exist costs the same bcrypt check as a wrong password, so
    /// timing tells nothing either.
    func verify(_ player: Player?, password: String) async throws -> Player? {
        let hash: String
        if let stored = player?.passwordHash { hash = stored } else { hash = try await decoyHash() }
        let matches = try await work.run { Bcrypt.verify(password, hash: hash) }
        guard let player, matches, player.canSignIn else { return nil }
        return player
    }

    /// A valid hash of a password nobody has, at the cost real hashes have, checked when
    /// the handle is unknown. Made once per cost.
    private func decoyHash() async throws -> String {
        if let decoy = Self.decoys.withLock({ $0[cost] }) { return decoy }
        let decoy = try await hash(Secret.make())
        return Self.decoys.withLock { decoys in
            if let first = decoys[cost] { return first }
            decoys[cost] = decoy
            return decoy
        }
    }

    private static let decoys = Mutex<[UInt8: String]>([:])

    /// Creates a user who can sign in. Throws `FieldErrors` for bad input.
    public func createUser(displayName: String?, handle: String?, role: Role, password: String?) async throws -> Player {
        let valid = try AccountDraft(displayName: displayName, handle: handle, role: role, password: password).validated()
        return try await stores.domain.createAccount(valid.player, passwordHash: try await hash(valid.password))
    }

    public func resetPassword(handle: String, password: String, actor: UUID? = nil) async throws -> Player {
        let player = try await existing(handle)
        let updated = try await stores.domain.setPassword(of: player.id, hash: try await hash(try PasswordRules.validate(password)), actor: actor)
        // Whoever knew the old password is signed out here.
        try await credentials.endSessions(of: player.id)
        return updated
    }

    public func issueToken(handle: String, name: String) async throws -> String {
        let player = try await existing(handle)
        return try await credentials.newToken(for: player.id, name: name)
    }

    func existing(_ handle: String) async throws -> Player {
        guard case .success(let parsed) = Handle.parse(handle), let player = try await stores.domain.player(handle: parsed) else {
            throw StoreError.notFound("Player @\(handle)")
        }
        return player
    }

    /// A single-use link for creating the first admin, when there is no admin yet.
    public func setupTokenIfNeeded() async throws -> String? {
        guard try await !stores.domain.hasEnabledAdmin() else { return nil }
        return try await stores.operational.createLink(
            OneTimeLink(kind: .setup, role: .admin, expiresAt: Date(timeIntervalSinceNow: Self.setupLifetime)), grantedBy: nil)
    }
}
