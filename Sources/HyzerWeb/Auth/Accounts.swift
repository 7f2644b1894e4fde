import Foundation
import HummingbirdBcrypt
import HyzerCore
import HyzerStore
import Synchronization

/// Account operations that need a password hash: used by the sign-in, setup and join pages
/// and by `hyzer admin` on the command line, on the same stores.
public struct Accounts: Sendable {
    let stores: Stores
    /// bcrypt's work factor: 12 by default (about a quarter second here); tests use less.
    let cost: UInt8

    /// How long a setup link or an invite stays usable.
    static let setupLifetime: TimeInterval = 24 * 3600
    static let inviteLifetime: TimeInterval = 7 * 24 * 3600

    public init(stores: Stores, cost: UInt8 = 12) {
        self.stores = stores
        self.cost = cost
    }

    func hash(_ password: String) -> String {
        Bcrypt.hash(password, cost: cost)
    }

    /// The player a handle and password open, or nil. A handle that does not exist costs the
    /// same bcrypt check as a wrong password, so timing tells nothing either.
    func verify(handle: String, password: String) async throws -> Player? {
        let player: Player?
        if case .success(let parsed) = Handle.parse(handle) { player = try await stores.domain.player(handle: parsed) } else { player = nil }
        let matches = Bcrypt.verify(password, hash: player?.passwordHash ?? Self.decoyHash(cost: cost))
        guard let player, matches, player.canSignIn else { return nil }
        return player
    }

    /// A valid hash of a password nobody has, at the cost real hashes have, checked when
    /// the handle is unknown. Made once per cost.
    private static func decoyHash(cost: UInt8) -> String {
        decoys.withLock { decoys in
            if let decoy = decoys[cost] { return decoy }
            let decoy = Bcrypt.hash(Secret.make(), cost: cost)
            decoys[cost] = decoy
            return decoy
        }
    }

    private static let decoys = Mutex<[UInt8: String]>([:])

    /// Creates a user who can sign in. Throws `FieldErrors` for bad input.
    public func createUser(displayName: String?, handle: String?, role: Role, password: String?) async throws -> Player {
        let valid = try AccountDraft(displayName: displayName, handle: handle, role: role, password: password).validated()
        return try await stores.domain.createAccount(valid.player, passwordHash: hash(valid.password))
    }

    public func resetPassword(handle: String, password: String, actor: UUID? = nil) async throws -> Player {
        let player = try await existing(handle)
        let updated = try await stores.domain.setPassword(of: player.id, hash: hash(try PasswordRules.validate(password)), actor: actor)
        // Whoever knew the old password is signed out here.
        try await stores.operational.removeSessions(of: player.id)
        return updated
    }

    public func issueToken(handle: String, name: String) async throws -> String {
        let player = try await existing(handle)
        return try await stores.operational.issueToken(for: player.id, name: name)
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
        return try await stores.operational.createLink(OneTimeLink(kind: .setup, role: .admin, expiresAt: Date(timeIntervalSinceNow: Self.setupLifetime)))
    }
}
