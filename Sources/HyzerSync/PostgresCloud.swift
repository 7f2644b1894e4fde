import Foundation
import HyzerCore
import Logging
import PostgresNIO
import ServiceLifecycle

/// The cloud for devices on several machines. Records are keyed by (zone, type, id); each
/// change gets the next number of its zone's sequence while the zone row is locked, so
/// numbers commit in order and a pull after token N can never skip a change that commits
/// later with a smaller number. After each push that changed something, `NOTIFY` tells
/// listeners to pull.
public final class PostgresCloud: CloudDatabase, Service {
    public static let channel = "hyzer_changes"

    let client: PostgresClient
    let address: CloudAddress.PostgresAddress
    /// Tags this instance's notifications, so it does not pull what it just pushed.
    let origin = UUID().uuidString
    let logger: Logger
    private let operationTimeout: Duration

    public init(
        address: CloudAddress.PostgresAddress, logger: Logger, connectTimeout: Duration = .seconds(5), operationTimeout: Duration = .seconds(15)
    ) {
        var configuration = PostgresClient.Configuration(
            host: address.host, port: address.port, username: address.username,
            password: address.password, database: address.database, tls: .disable
        )
        configuration.options.connectTimeout = connectTimeout
        configuration.options.maximumConnections = 8
        // The server gives up when this client would: a statement still waiting after the
        // operation's deadline (behind a lock, say) is cancelled, and a transaction left
        // open (a network that died mid-push) is ended, so it does not hold the zone's
        // lock, and with it every other device's pushes, until TCP notices hours later.
        let milliseconds = String(operationTimeout.components.seconds * 1000 + operationTimeout.components.attoseconds / 1_000_000_000_000_000)
        configuration.options.additionalStartupParameters = [
            ("statement_timeout", milliseconds), ("idle_in_transaction_session_timeout", milliseconds),
        ]
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.address = address
        self.logger = logger
        self.operationTimeout = operationTimeout
    }

    public var displayName: String { "PostgreSQL \(address.username)@\(address.host):\(address.port)/\(address.database ?? "")" }

    /// The client's connection pool runs as a service of the application.
    public func run() async throws {
        await client.run()
    }

    // MARK: Account

    public func resolveAccount() async -> AccountStatus {
        do {
            return try await bounded {
                try await self.migrate()
                return try await self.canWrite() ? .available : .restricted
            }
        } catch let error as CloudError {
            if case .unreachable = error { return .temporarilyUnavailable }
            return .couldNotDetermine
        } catch {
            return Self.isConnectionError(error) ? .temporarilyUnavailable : .couldNotDetermine
        }
    }

    /// Creates the schema once; a user who may not create tables (a read-only device)
    /// still works when the tables exist.
    func migrate() async throws {
        do {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(72627)", logger: self.logger)
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS hyzer_zones (zone TEXT PRIMARY KEY, seq BIGINT NOT NULL DEFAULT 0)
                    """, logger: self.logger)
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS hyzer_records (
                        zone TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL, hlc TEXT NOT NULL,
                        payload BYTEA NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (zone, type, id))
                    """, logger: self.logger)
                try await connection.query("CREATE INDEX IF NOT EXISTS hyzer_records_by_seq ON hyzer_records (zone, seq)", logger: self.logger)
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS hyzer_identities (
                        zone TEXT NOT NULL, handle TEXT NOT NULL, record_name TEXT NOT NULL, PRIMARY KEY (zone, handle))
                    """, logger: self.logger)
            }
        } catch {
            if Self.isConnectionError(error) { throw CloudError.unreachable("\(error)") }
            // Not allowed to create: fine if the tables are already there.
            let exists = try await client.query("SELECT to_regclass('hyzer_records') IS NOT NULL", logger: logger)
            for try await (present) in exists.decode(Bool.self) where present { return }
            throw CloudError.failed("cannot create the cloud tables: \(String(reflecting: error))")
        }
    }

    func canWrite() async throws -> Bool {
        let rows = try await client.query(
            """
            SELECT has_table_privilege(current_user, 'hyzer_records', 'INSERT')
               AND has_table_privilege(current_user, 'hyzer_records', 'UPDATE')
               AND has_table_privilege(current_user, 'hyzer_zones', 'UPDATE')
            """, logger: logger)
        for try await (allowed) in rows.decode(Bool.self) { return allowed }
        return false
    }

    // MARK: Identities

    public func claimIdentity(handle: String, proposed recordName: String, zone: String) async throws -> String {
        try await bounded {
            try await self.client.query(
                "INSERT INTO hyzer_identities (zone, handle, record_name) VALUES (\(zone), \(handle), \(recordName)) ON CONFLICT DO NOTHING",
                logger: self.logger)
            let rows = try await self.client.query(
                "SELECT record_name FROM hyzer_identities WHERE zone = \(zone) AND handle = \(handle)", logger: self.logger)
            for try await (name) in rows.decode(String.self) { return name }
            return recordName
        }
    }

    // MARK: Records

    public func save(_ records: [CloudRecord], zone: String) async throws -> Int {
        guard !records.isEmpty else { return 0 }
        if records.allSatisfy({ CloudMerge.isInsertOnly($0.type) }) { return try await insertOnly(records, zone: zone) }
        return try await bounded {
            try await self.client.withTransaction(logger: self.logger) { connection in
                // The zone row lock serializes pushers until commit: change numbers commit in order.
                // One trip makes the row on first use, locks it and reads the current number.
                var seq: Int64 = 0
                let locked = try await connection.query(
                    """
                    INSERT INTO hyzer_zones (zone) VALUES (\(zone)) ON CONFLICT (zone) DO UPDATE SET seq = hyzer_zones.seq RETURNING seq
                    """, logger: self.logger)
                for try await (value) in locked.decode(Int64.self) {
                    seq = value
                }
                let keys = records.map { "\($0.type.rawValue)/\($0.id)" }
                var existing: [String: CloudRecord] = [:]
                let rows = try await connection.query(
                    """
                    SELECT type, id, hlc, payload FROM hyzer_records WHERE zone = \(zone) AND (type || '/' || id) = ANY(\(keys))
                    """, logger: self.logger)
                for try await (type, id, hlc, payload) in rows.decode((String, String, String, ByteBuffer).self) {
                    guard let type = RecordType(rawValue: type), let hlc = HLC(hlc) else { continue }
                    existing["\(type.rawValue)/\(id)"] = CloudRecord(type: type, id: id, hlc: hlc, payload: Data(payload.readableBytesView))
                }
                var changed = 0
                // Each key once, as its last merge left it, in the order of those merges.
                var written: [String] = []
                for record in records {
                    let key = "\(record.type.rawValue)/\(record.id)"
                    guard let merged = CloudMerge.merge(existing: existing[key], incoming: record) else { continue }
                    changed += 1
                    existing[key] = merged
                    written.removeAll { $0 == key }
                    written.append(key)
                }
                guard changed > 0 else { return 0 }
                let stored = written.compactMap { existing[$0] }
                let first = seq + 1
                seq += Int64(stored.count)
                // The records, the zone's number and the hint in one trip. The hint is
                // delivered at commit, and only then: it never runs ahead of the data.
                try await connection.query(
                    """
                    WITH incoming AS (
                        SELECT * FROM unnest(\(stored.map(\.type.rawValue)), \(stored.map(\.id)), \(stored.map(\.hlc.description)),
                                             \(stored.map { ByteBuffer(bytes: $0.payload) }), \(Array(first...seq))) AS r(type, id, hlc, payload, seq)
                    ), stored AS (
                        INSERT INTO hyzer_records (zone, type, id, hlc, payload, seq)
                        SELECT \(zone), type, id, hlc, payload, seq FROM incoming
                        ON CONFLICT (zone, type, id) DO UPDATE SET hlc = EXCLUDED.hlc, payload = EXCLUDED.payload, seq = EXCLUDED.seq
                    ), numbered AS (
                        UPDATE hyzer_zones SET seq = \(seq) WHERE zone = \(zone)
                    )
                    SELECT pg_notify(\(Self.channel), \(zone + " " + self.origin))
                    """, logger: self.logger)
                return changed
            }
        }
    }

    /// Score events and signatures (the usual push) need no merge: one statement, its own
    /// transaction, one trip. It takes the zone's lock (the change numbers commit in order)
    /// and reserves a number per record; one that is already stored keeps its own, and the
    /// number it reserved is never used (tokens only compare). The hint goes at commit, if
    /// anything was new.
    private func insertOnly(_ records: [CloudRecord], zone: String) async throws -> Int {
        let count = Int64(records.count)
        return try await bounded {
            let rows = try await self.client.query(
                """
                WITH numbered AS (
                    INSERT INTO hyzer_zones (zone, seq) VALUES (\(zone), \(count))
                    ON CONFLICT (zone) DO UPDATE SET seq = hyzer_zones.seq + \(count)
                    RETURNING seq - \(count) AS base
                ), stored AS (
                    INSERT INTO hyzer_records (zone, type, id, hlc, payload, seq)
                    SELECT \(zone), r.type, r.id, r.hlc, r.payload, numbered.base + r.n
                    FROM numbered, unnest(\(records.map(\.type.rawValue)), \(records.map(\.id)), \(records.map(\.hlc.description)),
                                          \(records.map { ByteBuffer(bytes: $0.payload) })) WITH ORDINALITY AS r(type, id, hlc, payload, n)
                    ON CONFLICT (zone, type, id) DO NOTHING
                    RETURNING 1
                )
                SELECT COUNT(*)::BIGINT FROM (SELECT pg_notify(\(Self.channel), \(zone + " " + self.origin)) FROM stored) AS hinted
                """, logger: self.logger)
            for try await (stored) in rows.decode(Int64.self) { return Int(stored) }
            return 0
        }
    }

    public func changes(zone: String, after token: Int64, limit: Int) async throws -> ChangePage {
        try await bounded {
            // A page is a window of change numbers, not `seq > token ORDER BY seq LIMIT n`:
            // on a freshly loaded table without statistics, PostgreSQL plans that as a scan
            // and an on-disk sort of the whole rest of the zone, for every page. A window's
            // work is bounded by the page whatever the plan. Numbers have gaps (a changed
            // record moves to a new number; a copy leaves its reserved one unused), so the
            // zone's newest number says whether more follow a page that is not full.
            let end = token.addingReportingOverflow(Int64(limit)).overflow ? Int64.max : token + Int64(limit)
            let rows = try await self.client.query(
                """
                SELECT z.seq, r.type, r.id, r.hlc, r.payload, r.seq FROM hyzer_zones z
                LEFT JOIN hyzer_records r ON r.zone = z.zone AND r.seq > \(token) AND r.seq <= \(end)
                WHERE z.zone = \(zone) ORDER BY r.seq
                """, logger: self.logger)
            var records: [CloudRecord] = []
            var unreadable: [UnreadableRecord] = []
            var last = token
            var newest = token
            for try await (zoneSeq, type, id, hlc, payload, seq) in rows.decode((Int64, String?, String?, String?, ByteBuffer?, Int64?).self) {
                newest = zoneSeq
                guard let seq else { continue }
                last = seq
                // The columns are NOT NULL: a row of the join has them all.
                guard let type, let id, let hlc, let payload else { continue }
                switch UnreadableRecord.read(type: type, id: id, hlc: hlc, payload: Data(payload.readableBytesView)) {
                case .success(let record): records.append(record)
                case .failure(let record): unreadable.append(record)
                }
            }
            if newest > end { return ChangePage(records: records, unreadable: unreadable, token: end, hasMore: true) }
            return ChangePage(records: records, unreadable: unreadable, token: last, newest: newest)
        }
    }

    public func position(zone: String) async throws -> Int64? {
        try await bounded {
            let rows = try await self.client.query("SELECT seq FROM hyzer_zones WHERE zone = \(zone)", logger: self.logger)
            for try await (seq) in rows.decode(Int64.self) { return seq }
            return 0
        }
    }

    /// Rewrites the payload of the zone's player records that carry a password hash, in place:
    /// `transform` gives the new payload, or nil to leave one be. Each keeps its version and
    /// change number (a device that has it has the same account), and one that changed since
    /// it was read is left to its newer version. Returns how many were rewritten.
    func rewritePlayers(zone: String, _ transform: @escaping @Sendable (CloudRecord) throws -> Data?) async throws -> Int {
        try await bounded {
            let marker = ByteBuffer(bytes: Data(#""passwordHash":""#.utf8))
            let rows = try await self.client.query(
                """
                SELECT id, hlc, payload FROM hyzer_records WHERE zone = \(zone) AND type = \(RecordType.player.rawValue) AND position(\(marker) IN payload) > 0
                """, logger: self.logger)
            var rewritten: [(id: String, hlc: String, payload: Data)] = []
            for try await (id, hlc, payload) in rows.decode((String, String, ByteBuffer).self) {
                guard let version = HLC(hlc) else { continue }
                let record = CloudRecord(type: .player, id: id, hlc: version, payload: Data(payload.readableBytesView))
                if let new = try transform(record) { rewritten.append((id, hlc, new)) }
            }
            guard !rewritten.isEmpty else { return 0 }
            let updated = try await self.client.query(
                """
                WITH incoming AS (
                    SELECT * FROM unnest(\(rewritten.map(\.id)), \(rewritten.map(\.hlc)), \(rewritten.map { ByteBuffer(bytes: $0.payload) })) AS r(id, hlc, payload)
                ), rewritten AS (
                    UPDATE hyzer_records h SET payload = incoming.payload FROM incoming
                    WHERE h.zone = \(zone) AND h.type = \(RecordType.player.rawValue) AND h.id = incoming.id AND h.hlc = incoming.hlc
                    RETURNING 1
                )
                SELECT COUNT(*)::BIGINT FROM rewritten
                """, logger: self.logger)
            for try await (count) in updated.decode(Int64.self) { return Int(count) }
            return 0
        }
    }

    public func changeCount(zone: String, after token: Int64) async throws -> Int {
        try await bounded {
            let rows = try await self.client.query(
                "SELECT COUNT(*)::BIGINT FROM hyzer_records WHERE zone = \(zone) AND seq > \(token)", logger: self.logger)
            for try await (count) in rows.decode(Int64.self) { return Int(count) }
            return 0
        }
    }

    /// LISTENs on a dedicated connection. When it drops (the server stopped, the network
    /// went), that is said at once (`lost`); it listens again after a pause and says
    /// `connected`, since notifications sent meanwhile were lost.
    public func hints(zone: String) -> AsyncStream<CloudSignal> {
        AsyncStream(bufferingPolicy: .bufferingNewest(4)) { continuation in
            let task = Task {
                var listening = false
                while !Task.isCancelled {
                    do {
                        try await self.client.withConnection { connection in
                            try await connection.listen(on: Self.channel) { notifications in
                                listening = true
                                continuation.yield(.connected)
                                for try await notification in notifications {
                                    let parts = notification.payload.split(separator: " ", maxSplits: 1)
                                    if parts.first.map(String.init) == zone && parts.last.map(String.init) != self.origin {
                                        continuation.yield(.changed)
                                    }
                                }
                            }
                        }
                    } catch {
                        if Task.isCancelled { break }
                    }
                    if listening {
                        listening = false
                        continuation.yield(.lost)
                    }
                    try? await Task.sleep(for: .seconds(1))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    // MARK: Failures

    /// Runs an operation with a deadline: a server that accepts and never answers, or a pool
    /// that keeps retrying a dead server, must not hold the sync engine (see `Deadline`).
    func bounded<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let timeout = operationTimeout
        return try await Deadline.run(timeout, orThrow: { CloudError.unreachable("no answer within \(timeout)") }) {
            do { return try await operation() } catch let error as CloudError { throw error } catch {
                throw Self.isConnectionError(error) ? CloudError.unreachable("\(error)") : CloudError.failed(String(reflecting: error))
            }
        }
    }

    static func isConnectionError(_ error: any Error) -> Bool {
        if let error = error as? PSQLError {
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed: return true
            default: return false
            }
        }
        return error is CancellationError ? false : "\(error)".contains("connect")
    }
}
