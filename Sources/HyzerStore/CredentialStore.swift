import Foundation

/// Where sessions and API tokens live: `sync.sqlite` on one device (`OperationalStore`), or
/// the cluster's PostgreSQL when instances behind one load balancer act as one site
/// (`ClusterCredentials` in HyzerSync). Either keeps only digests of the secrets.
public protocol CredentialStore: Sendable {
    /// A live session's value and expiry; nil when unknown or expired.
    func session(key: String) async throws -> (value: Data, expiresAt: Date?)?
    /// Stores a session (`onlyIfAbsent`: false when the key is taken). `playerID` is kept
    /// beside it for "sign out everywhere".
    func storeSession(key: String, value: Data, playerID: UUID?, expiresAt: Date?, onlyIfAbsent: Bool) async throws -> Bool
    func endSession(key: String) async throws
    /// Ends every session of a player; answers how many ended.
    @discardableResult func endSessions(of playerID: UUID) async throws -> Int

    /// A new token for a player, shown once; only its digest is kept.
    func newToken(for playerID: UUID, name: String) async throws -> String
    /// The player a live token belongs to.
    func owner(ofToken token: String) async throws -> UUID?
    func tokenList() async throws -> [APITokenEntry]
    func revoke(token id: UUID) async throws

    /// Moves when a session or token may have changed here or (for a cluster) anywhere:
    /// open live streams are decided again.
    var changeStamp: UInt64 { get }
}

extension OperationalStore: CredentialStore {
    public func session(key: String) async throws -> (value: Data, expiresAt: Date?)? { try await sessionValue(key: key) }

    public func storeSession(key: String, value: Data, playerID: UUID?, expiresAt: Date?, onlyIfAbsent: Bool) async throws -> Bool {
        try await setSession(key: key, value: value, playerID: playerID, expiresAt: expiresAt, onlyIfAbsent: onlyIfAbsent)
    }

    public func endSession(key: String) async throws { try await removeSession(key: key) }

    @discardableResult public func endSessions(of playerID: UUID) async throws -> Int { try await removeSessions(of: playerID) }

    public func newToken(for playerID: UUID, name: String) async throws -> String { try await issueToken(for: playerID, name: name) }

    public func owner(ofToken token: String) async throws -> UUID? { try await tokenOwner(token) }

    public func tokenList() async throws -> [APITokenEntry] { try await tokens() }

    public func revoke(token id: UUID) async throws { try await revokeToken(id) }

    // Already part of `Stores.accessStamp`.
    public var changeStamp: UInt64 { 0 }
}
