import Crypto
import Foundation
import HyzerCore
import HyzerStore
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Sessions and API tokens of a cluster: instances that share a PostgreSQL cloud and a
/// cluster secret act as one site, so what one instance issues every other accepts, and what
/// one ends ends everywhere.
///
/// - Only digests reach the cloud: HMAC-SHA256 under a key derived from the secret, so a
///   copy of the database opens no account, and clusters with other secrets on the same
///   database neither see nor match each other's rows.
/// - Lookups are kept in memory while this instance listens on the credentials channel:
///   every change (a sign-out, a revoked token) is written with a `NOTIFY` in the same
///   statement, delivered at commit, and each listener drops what it kept. Without a
///   listening connection nothing is kept and every lookup reads the database; when the
///   database cannot be read at all, a session already seen is honoured (nothing can be
///   revoked meanwhile: revoking needs the database too).
public final class ClusterCredentials: CredentialStore, Service {
    public static let channel = "hyzer_credentials"

    private let client: PostgresClient
    private let cloud: PostgresCloud
    private let logger: Logger
    private let key: SymmetricKey
    /// Names this cluster's rows and notifications (a digest of the secret, not the secret).
    public let cluster: String
    private let state = Mutex(State())
    private let schemaReady = Mutex(false)

    private struct State {
        var generation: UInt64 = 0
        var listening = false
        var sessions: [String: (value: Data, expiresAt: Date?)] = [:]
        var owners: [String: TokenUse] = [:]
        /// What was last read, for when the database cannot be reached.
        var lastKnown: [String: (value: Data, expiresAt: Date?)] = [:]
    }

    struct TokenUse: Sendable {
        var id: String
        var playerID: UUID
        var lastUsed: Date?
    }

    /// How often a token's last use is written (as on one device: to the minute).
    static let tokenUseResolution: TimeInterval = 60
    static let keptCapacity = 4096

    public init(cloud: PostgresCloud, secret: String, logger: Logger) {
        self.cloud = cloud
        client = cloud.client
        self.logger = logger
        let master = SymmetricKey(data: Data(secret.utf8))
        key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data("hyzer-credentials".utf8), using: master)))
        cluster = HMAC<SHA256>.authenticationCode(for: Data("hyzer-cluster".utf8), using: master).prefix(8).map { String(format: "%02x", $0) }
            .joined()
    }

    /// The key every instance of the cluster signs form tokens with.
    public static func formKey(secret: String) -> FormTokenKey {
        let master = SymmetricKey(data: Data(secret.utf8))
        return FormTokenKey(bytes: Data(HMAC<SHA256>.authenticationCode(for: Data("hyzer-form-key".utf8), using: master)))
    }

    func digest(_ secret: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(secret.utf8), using: key).map { String(format: "%02x", $0) }.joined()
    }

    public var changeStamp: UInt64 { state.withLock { $0.generation } }

    // MARK: Listening

    public func run() async throws {
        await cancelWhenGracefulShutdown { await self.listen() }
    }

    private func listen() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        // Anything kept from before this connection listened may have missed a change.
                        self.forget(listening: true)
                        for try await notification in notifications where notification.payload == self.cluster {
                            self.forget(listening: true)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { break }
                logger.notice(
                    "Not listening for the cluster's sign-outs; reading sessions from the database until it is back", metadata: ["error": "\(error)"])
            }
            forget(listening: false)
            try? await Task.sleep(for: .seconds(1))
        }
    }

    private func forget(listening: Bool) {
        state.withLock { state in
            state.generation &+= 1
            state.listening = listening
            state.sessions = [:]
            state.owners = [:]
        }
    }

    /// Reads `read` unless kept; keeps what it read if nothing changed meanwhile.
    private func kept<Value: Sendable>(
        _ path: WritableKeyPath<State, [String: Value]>, _ digest: String, read: () async throws -> Value?
    ) async throws -> (value: Value?, generation: UInt64) {
        let (found, generation) = state.withLock { state in
            (state.listening ? state[keyPath: path][digest] : nil, state.generation)
        }
        if let found { return (found, generation) }
        return (try await read(), generation)
    }

    private func keep<Value: Sendable>(_ value: Value, _ path: WritableKeyPath<State, [String: Value]>, _ digest: String, readAt generation: UInt64) {
        state.withLock { state in
            guard state.listening, state.generation == generation else { return }
            if state[keyPath: path].count >= Self.keptCapacity { state[keyPath: path] = [:] }
            state[keyPath: path][digest] = value
        }
    }

    // MARK: Schema

    private func prepared() async throws {
        if schemaReady.withLock({ $0 }) { return }
        _ = try await cloud.bounded {
            try await self.client.withTransaction(logger: self.logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(72628)", logger: self.logger)
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS hyzer_sessions (
                        cluster TEXT NOT NULL, digest TEXT NOT NULL, player_id TEXT, value BYTEA NOT NULL,
                        expires_at DOUBLE PRECISION, PRIMARY KEY (cluster, digest))
                    """, logger: self.logger)
                try await connection.query(
                    "CREATE INDEX IF NOT EXISTS hyzer_sessions_by_player ON hyzer_sessions (cluster, player_id)", logger: self.logger)
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS hyzer_api_tokens (
                        cluster TEXT NOT NULL, id TEXT NOT NULL, digest TEXT NOT NULL, player_id TEXT NOT NULL, name TEXT NOT NULL,
                        created_at DOUBLE PRECISION NOT NULL, last_used_at DOUBLE PRECISION, revoked_at DOUBLE PRECISION,
                        PRIMARY KEY (cluster, id))
                    """, logger: self.logger)
                try await connection.query(
                    "CREATE UNIQUE INDEX IF NOT EXISTS hyzer_api_tokens_by_digest ON hyzer_api_tokens (cluster, digest)", logger: self.logger)
            }
        }
        schemaReady.withLock { $0 = true }
    }

    // MARK: Sessions

    public func session(key: String) async throws -> (value: Data, expiresAt: Date?)? {
        let digest = digest(key)
        let found: (value: (value: Data, expiresAt: Date?)?, generation: UInt64)
        do {
            found = try await kept(\.sessions, digest) {
                try await self.prepared()
                return try await self.cloud.bounded {
                    let rows = try await self.client.query(
                        "SELECT value, expires_at FROM hyzer_sessions WHERE cluster = \(self.cluster) AND digest = \(digest)", logger: self.logger)
                    for try await (value, expires) in rows.decode((ByteBuffer, Double?).self) {
                        return (Data(value.readableBytesView), expires.map(Date.init(timeIntervalSince1970:)))
                    }
                    return nil
                }
            }
        } catch {
            // The database is out of reach: a session seen before still stands (see above).
            guard let known = state.withLock({ $0.lastKnown[digest] }) else { throw error }
            logger.debug("Honouring a known session while the cluster database is unreachable")
            return known.expiresAt.map { $0 > Date() } ?? true ? known : nil
        }
        guard let session = found.value else { return nil }
        keep(session, \.sessions, digest, readAt: found.generation)
        state.withLock { state in
            if state.lastKnown.count >= Self.keptCapacity { state.lastKnown = [:] }
            state.lastKnown[digest] = session
        }
        if let expires = session.expiresAt, expires <= Date() { return nil }
        return session
    }

    public func storeSession(key: String, value: Data, playerID: UUID?, expiresAt: Date?, onlyIfAbsent: Bool) async throws -> Bool {
        try await prepared()
        let digest = digest(key)
        let (cluster, player, expires, bytes, now) = (
            cluster, playerID?.lowercasedText, expiresAt?.timeIntervalSince1970, ByteBuffer(bytes: value), Date().timeIntervalSince1970
        )
        let stored = try await cloud.bounded {
            try await self.client.query(
                "DELETE FROM hyzer_sessions WHERE cluster = \(cluster) AND expires_at IS NOT NULL AND expires_at <= \(now)", logger: self.logger)
            let rows =
                onlyIfAbsent
                ? try await self.client.query(
                    """
                    INSERT INTO hyzer_sessions (cluster, digest, player_id, value, expires_at) VALUES (\(cluster), \(digest), \(player), \(bytes), \(expires))
                    ON CONFLICT DO NOTHING RETURNING 1
                    """, logger: self.logger)
                : try await self.client.query(
                    """
                    WITH stored AS (
                        INSERT INTO hyzer_sessions (cluster, digest, player_id, value, expires_at) VALUES (\(cluster), \(digest), \(player), \(bytes), \(expires))
                        ON CONFLICT (cluster, digest) DO UPDATE SET player_id = EXCLUDED.player_id, value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
                        RETURNING 1
                    )
                    SELECT 1 FROM stored, (SELECT pg_notify(\(Self.channel), \(cluster))) AS hinted
                    """, logger: self.logger)
            var count = 0
            for try await _ in rows { count += 1 }
            return count > 0
        }
        if !onlyIfAbsent { forget(listening: state.withLock { $0.listening }) }
        return stored
    }

    public func endSession(key: String) async throws {
        try await ending("DELETE FROM hyzer_sessions WHERE cluster = \(cluster) AND digest = \(digest(key)) RETURNING 1")
    }

    @discardableResult public func endSessions(of playerID: UUID) async throws -> Int {
        try await ending("DELETE FROM hyzer_sessions WHERE cluster = \(cluster) AND player_id = \(playerID.lowercasedText) RETURNING 1")
    }

    /// Runs a statement that ends or changes credentials (it returns a row per change), with the
    /// cluster's notification in the same statement: it reaches the other instances at commit.
    /// What this instance kept is dropped before it returns.
    @discardableResult
    private func ending(_ change: PostgresQuery) async throws -> Int {
        try await prepared()
        // The cluster's name is hex and the channel a constant: neither needs binding.
        let query = PostgresQuery(
            unsafeSQL:
                "WITH changed AS (\(change.sql)) SELECT COUNT(*)::BIGINT FROM changed, (SELECT pg_notify('\(Self.channel)', '\(cluster)')) AS hinted",
            binds: change.binds)
        let count = try await cloud.bounded {
            let rows = try await self.client.query(query, logger: self.logger)
            for try await (count) in rows.decode(Int64.self) { return Int(count) }
            return 0
        }
        forget(listening: state.withLock { $0.listening })
        state.withLock { $0.lastKnown = [:] }
        return count
    }

    // MARK: API tokens

    public func newToken(for playerID: UUID, name: String) async throws -> String {
        try await prepared()
        let token = "hyz_" + Secret.make()
        let (cluster, digest, id, player, now) = (
            cluster, digest(token), UUID().lowercasedText, playerID.lowercasedText, Date().timeIntervalSince1970
        )
        _ = try await cloud.bounded {
            try await self.client.query(
                """
                INSERT INTO hyzer_api_tokens (cluster, id, digest, player_id, name, created_at) VALUES (\(cluster), \(id), \(digest), \(player), \(name), \(now))
                """, logger: self.logger)
        }
        return token
    }

    public func owner(ofToken token: String) async throws -> UUID? {
        let digest = digest(token)
        let found = try await kept(\.owners, digest) {
            try await self.prepared()
            return try await self.cloud.bounded {
                let rows = try await self.client.query(
                    "SELECT id, player_id, last_used_at FROM hyzer_api_tokens WHERE cluster = \(self.cluster) AND digest = \(digest) AND revoked_at IS NULL",
                    logger: self.logger)
                for try await (id, player, used) in rows.decode((String, String, Double?).self) {
                    guard let playerID = UUID(uuidString: player) else { return nil }
                    return TokenUse(id: id, playerID: playerID, lastUsed: used.map(Date.init(timeIntervalSince1970:)))
                }
                return nil
            }
        }
        guard var use = found.value else { return nil }
        let now = Date()
        if use.lastUsed.map({ now.timeIntervalSince($0) >= Self.tokenUseResolution || $0 > now }) ?? true {
            let (cluster, id, at) = (cluster, use.id, now.timeIntervalSince1970)
            _ = try await cloud.bounded {
                try await self.client.query(
                    "UPDATE hyzer_api_tokens SET last_used_at = \(at) WHERE cluster = \(cluster) AND id = \(id)", logger: self.logger)
            }
            use.lastUsed = now
        }
        keep(use, \.owners, digest, readAt: found.generation)
        return use.playerID
    }

    public func tokenList() async throws -> [APITokenEntry] {
        try await prepared()
        return try await cloud.bounded {
            let rows = try await self.client.query(
                """
                SELECT id, player_id, name, created_at, last_used_at, revoked_at FROM hyzer_api_tokens
                WHERE cluster = \(self.cluster) ORDER BY created_at DESC
                """, logger: self.logger)
            var entries: [APITokenEntry] = []
            for try await (id, player, name, created, used, revoked) in rows.decode((String, String, String, Double, Double?, Double?).self) {
                guard let id = UUID(uuidString: id), let player = UUID(uuidString: player) else { continue }
                entries.append(
                    APITokenEntry(
                        id: id, playerID: player, name: name, createdAt: Date(timeIntervalSince1970: created),
                        lastUsedAt: used.map(Date.init(timeIntervalSince1970:)), revoked: revoked != nil))
            }
            return entries
        }
    }

    public func revoke(token id: UUID) async throws {
        try await ending(
            "UPDATE hyzer_api_tokens SET revoked_at = \(Date().timeIntervalSince1970) WHERE cluster = \(cluster) AND id = \(id.lowercasedText) AND revoked_at IS NULL RETURNING 1"
        )
    }
}
