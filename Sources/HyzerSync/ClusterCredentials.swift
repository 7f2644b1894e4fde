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
/// - Only digests reach the cloud: HMAC-SHA256 under a key derived from the secret (slowly:
///   `ClusterKeys`), so a copy of the database opens no account, and clusters with other
///   secrets on the same database neither see nor match each other's rows.
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
    public let keys: ClusterKeys
    /// Names this cluster's rows and notifications (derived from the secret, not the secret).
    public let cluster: String
    private let state = Mutex(State())
    private let schemaReady = Mutex(false)

    private struct State {
        var generation: UInt64 = 0
        var listening = false
        var sessions: [String: Known] = [:]
        var owners: [String: TokenUse] = [:]
        /// Sessions as last read, for when the database cannot be reached: dropped when the
        /// cluster says they ended, when a read finds them gone, and on every (re)connection
        /// (what was said while this instance was not listening is unknown).
        var lastKnown: [String: Known] = [:]
        /// After a failed read, the database is not asked again until then (a dead server must
        /// not cost every signed-in request a wait).
        var unreachableUntil: ContinuousClock.Instant?
        /// "Not listening" is said once per outage.
        var saidOffline = false
    }

    struct Known: Sendable {
        var session: (value: Data, expiresAt: Date?)
        var playerID: String?
    }

    /// How long a lookup (a session, a token) may take, and a change (a sign-in, a sign-out),
    /// before the database counts as unreachable: a request is answered from what is known.
    static let lookupTimeout: Duration = .seconds(1)
    static let changeTimeout: Duration = .seconds(3)
    /// How long the database is left alone after it failed to answer.
    static let retryAfterFailure: Duration = .seconds(2)

    struct TokenUse: Sendable {
        var id: String
        var playerID: UUID
        var lastUsed: Date?
    }

    /// How often a token's last use is written (as on one device: to the minute).
    static let tokenUseResolution: TimeInterval = 60
    static let keptCapacity = 4096

    public init(cloud: PostgresCloud, keys: ClusterKeys, logger: Logger) {
        self.cloud = cloud
        client = cloud.client
        self.logger = logger
        self.keys = keys
        cluster = keys.clusterID
    }

    public convenience init(cloud: PostgresCloud, secret: String, logger: Logger) throws {
        self.init(cloud: cloud, keys: try ClusterKeys(secret: secret), logger: logger)
    }

    func digest(_ secret: String) -> String {
        keys.digest(secret)
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
                        // Anything kept or known from before this connection listened may have
                        // missed a change.
                        self.forget(listening: true, ended: "all")
                        if self.state.withLock({ $0.saidOffline }) {
                            self.logger.notice("Listening for the cluster's sign-outs again")
                        }
                        self.state.withLock { $0.saidOffline = false }
                        for try await notification in notifications {
                            let parts = notification.payload.split(separator: " ", maxSplits: 1).map(String.init)
                            guard parts.first == self.cluster else { continue }
                            self.forget(listening: true, ended: parts.count > 1 ? parts[1] : "all")
                        }
                    }
                }
            } catch {
                if Task.isCancelled { break }
                if !state.withLock({ $0.saidOffline }) {
                    logger.notice(
                        "Not listening for the cluster's sign-outs; reading sessions from the database until it is back, and honouring those already seen while it cannot be reached",
                        metadata: ["error": "\(error)"])
                }
                state.withLock { $0.saidOffline = true }
            }
            forget(listening: false)
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Drops what is kept; `ended` names what the cluster ended, whose known sessions go too:
    /// `session DIGEST`, `player ID`, `all`, or nil (nothing ended: a value changed).
    private func forget(listening: Bool, ended: String? = nil) {
        state.withLock { state in
            state.generation &+= 1
            state.listening = listening
            state.sessions = [:]
            state.owners = [:]
            guard let ended else { return }
            let (kind, subject) = (ended.prefix { $0 != " " }, String(ended.drop { $0 != " " }.dropFirst()))
            switch kind {
            case "session": state.lastKnown[subject] = nil
            case "player": state.lastKnown = state.lastKnown.filter { $0.value.playerID != subject }
            case "token", "changed": break
            default: state.lastKnown = [:]
            }
        }
    }

    /// Runs a database operation within `timeout`; while the database recently failed and
    /// nobody is listening, it is not asked at all. Either way a failure is
    /// `CloudError.unreachable`, which callers answer from what is known or with "try again".
    private func quick<T: Sendable>(_ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let resting = state.withLock { state in !state.listening && state.unreachableUntil.map { ContinuousClock.now < $0 } == true }
        if resting { throw CloudError.unreachable("the cluster's database did not answer just now") }
        do {
            let result = try await Deadline.run(
                timeout, orThrow: { CloudError.unreachable("the cluster's database did not answer within \(timeout)") }
            ) {
                try await self.cloud.bounded(operation)
            }
            state.withLock { $0.unreachableUntil = nil }
            return result
        } catch let error as CloudError {
            if case .unreachable = error { state.withLock { $0.unreachableUntil = ContinuousClock.now + Self.retryAfterFailure } }
            throw error
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
        _ = try await quick(Self.changeTimeout) {
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
                try await self.renameLegacyRows(connection)
            }
        }
        schemaReady.withLock { $0 = true }
        // Instances given another secret form a cluster of their own on the same database, and
        // behind one load balancer sign their users out at random: say so where operators look.
        let (cluster, now) = (cluster, Date().timeIntervalSince1970)
        // quiet: a warning for operators, best effort: the lookup failing changes nothing.
        let others = try? await quick(Self.lookupTimeout) {
            let rows = try await self.client.query(
                "SELECT COUNT(DISTINCT cluster)::BIGINT FROM hyzer_sessions WHERE cluster <> \(cluster) AND (expires_at IS NULL OR expires_at > \(now))",
                logger: self.logger)
            for try await (count) in rows.decode(Int64.self) { return count }
            return 0
        }
        if let others, others > 0 {
            logger.warning(
                "This database also holds live sessions of another cluster: every instance behind one name needs the same --cluster-secret (compare the cluster id each logs at start)",
                metadata: ["cluster": "\(cluster)", "otherClusters": "\(others)"])
        }
    }

    /// Rows written by an earlier version are named by a fast digest of the secret (a copy of
    /// the database let anyone test guesses of a weak secret at HMAC speed) and hold digests
    /// under a key derived as fast: both are taken over, under this version's names, so the
    /// cluster's sessions and tokens go on working. Every instance of a cluster runs the same
    /// version: one left on the earlier one no longer shares sessions with the others.
    private func renameLegacyRows(_ connection: PostgresConnection) async throws {
        let (legacy, cluster) = (keys.legacyClusterID, cluster)
        guard legacy != cluster else { return }
        for table in ["hyzer_sessions", "hyzer_api_tokens"] {
            let rows = try await connection.query("SELECT digest FROM \(unescaped: table) WHERE cluster = \(legacy)", logger: logger)
            var digests: [String] = []
            for try await (digest) in rows.decode(String.self) { digests.append(digest) }
            guard !digests.isEmpty else { continue }
            let renamed = digests.map(keys.rekeyed)
            try await connection.query(
                """
                UPDATE \(unescaped: table) t SET cluster = \(cluster), digest = r.renamed FROM unnest(\(digests), \(renamed)) AS r(digest, renamed)
                WHERE t.cluster = \(legacy) AND t.digest = r.digest
                """, logger: logger)
            logger.notice("Took over the cluster's credentials under its new id", metadata: ["table": "\(table)", "rows": "\(digests.count)"])
        }
    }

    // MARK: Sessions

    public func session(key: String) async throws -> (value: Data, expiresAt: Date?)? {
        let digest = digest(key)
        let found: (value: Known?, generation: UInt64)
        do {
            found = try await kept(\.sessions, digest) {
                try await self.prepared()
                return try await self.quick(Self.lookupTimeout) {
                    let rows = try await self.client.query(
                        "SELECT value, expires_at, player_id FROM hyzer_sessions WHERE cluster = \(self.cluster) AND digest = \(digest)",
                        logger: self.logger)
                    for try await (value, expires, player) in rows.decode((ByteBuffer, Double?, String?).self) {
                        return Known(session: (Data(value.readableBytesView), expires.map(Date.init(timeIntervalSince1970:))), playerID: player)
                    }
                    return nil
                }
            }
        } catch let error as CloudError {
            // The database is out of reach: a session seen before, and not ended since as far as
            // this instance heard, still stands (see above).
            guard case .unreachable = error, let known = state.withLock({ $0.lastKnown[digest] }) else { throw error }
            return known.session.expiresAt.map { $0 > Date() } ?? true ? known.session : nil
        }
        guard let known = found.value else {
            state.withLock { $0.lastKnown[digest] = nil }
            return nil
        }
        let session = known.session
        keep(known, \.sessions, digest, readAt: found.generation)
        state.withLock { state in
            if state.lastKnown.count >= Self.keptCapacity { state.lastKnown = [:] }
            state.lastKnown[digest] = known
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
        let stored = try await quick(Self.changeTimeout) {
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
                    SELECT 1 FROM stored, (SELECT pg_notify(\(Self.channel), \(cluster + " changed"))) AS hinted
                    """, logger: self.logger)
            var count = 0
            for try await _ in rows { count += 1 }
            return count > 0
        }
        if !onlyIfAbsent { forget(listening: state.withLock { $0.listening }) }
        return stored
    }

    public func endSession(key: String) async throws {
        let digest = digest(key)
        try await ending("DELETE FROM hyzer_sessions WHERE cluster = \(cluster) AND digest = \(digest) RETURNING 1", ended: "session \(digest)")
    }

    @discardableResult public func endSessions(of playerID: UUID) async throws -> Int {
        let player = playerID.lowercasedText
        return try await ending(
            "DELETE FROM hyzer_sessions WHERE cluster = \(cluster) AND player_id = \(player) RETURNING 1", ended: "player \(player)")
    }

    /// Runs a statement that ends or changes credentials (it returns a row per change), with the
    /// cluster's notification in the same statement: it reaches the other instances at commit.
    /// `ended` says what ended (see `forget`). What this instance kept is dropped before it returns.
    @discardableResult
    private func ending(_ change: PostgresQuery, ended: String) async throws -> Int {
        try await prepared()
        var notify = PostgresQuery(unsafeSQL: change.sql, binds: change.binds)
        notify.sql =
            "WITH changed AS (\(change.sql)) SELECT COUNT(*)::BIGINT FROM changed, (SELECT pg_notify($\(change.binds.count + 1), $\(change.binds.count + 2))) AS hinted"
        notify.binds.append(Self.channel)
        notify.binds.append(cluster + " " + ended)
        let query = notify
        let count = try await quick(Self.changeTimeout) {
            let rows = try await self.client.query(query, logger: self.logger)
            for try await (count) in rows.decode(Int64.self) { return Int(count) }
            return 0
        }
        forget(listening: state.withLock { $0.listening }, ended: ended)
        return count
    }

    // MARK: API tokens

    public func newToken(for playerID: UUID, name: String) async throws -> String {
        try await prepared()
        let token = "hyz_" + Secret.make()
        let (cluster, digest, id, player, now) = (
            cluster, digest(token), UUID().lowercasedText, playerID.lowercasedText, Date().timeIntervalSince1970
        )
        _ = try await quick(Self.changeTimeout) {
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
            return try await self.quick(Self.lookupTimeout) {
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
            _ = try await quick(Self.changeTimeout) {
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
        return try await quick(Self.changeTimeout) {
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
            "UPDATE hyzer_api_tokens SET revoked_at = \(Date().timeIntervalSince1970) WHERE cluster = \(cluster) AND id = \(id.lowercasedText) AND revoked_at IS NULL RETURNING 1",
            ended: "token")
    }
}
