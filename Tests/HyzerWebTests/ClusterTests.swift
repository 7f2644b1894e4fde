import AsyncHTTPClient
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerCore
import HyzerSync
import Logging
import PostgresNIO
import Testing

@testable import HyzerStore
@testable import HyzerSync
@testable import HyzerWeb

/// Two instances of one cluster (one PostgreSQL cloud, one secret) over real HTTP: what one
/// issues the other accepts, what one ends the other refuses at once, and a write read on
/// the other instance right after shows.
@Suite(.serialized) struct ClusterTests {
    struct Pair {
        let a: Client
        let b: Client
        let users: TestUsers
    }

    /// Runs `body` with instances A (the demo round, the test users) and B of a fresh cluster
    /// in a zone of its own; B has received A's users before the body starts.
    static func withCluster(
        secret: String = "cluster-secret-\(UUID().uuidString)", configureB: @Sendable (inout AppConfiguration) -> Void = { _ in },
        beforeStart: @Sendable (TestUsers) async throws -> Void = { _ in }, _ body: @Sendable (Pair) async throws -> Void
    ) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-cluster-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let cloud = CloudAddress.postgres(try Self.postgres())
        let zone = "cluster-\(UUID().uuidString)"
        func configuration(_ name: String, demo: Bool) -> AppConfiguration {
            var config = testConfiguration(root.appendingPathComponent(name), seedDemo: demo, cloud: cloud)
            config.sync.zone = zone
            // The test's connections wait while B catches up: not closed as idle meanwhile.
            config.headerTimeout = .seconds(120)
            config.idleTimeout = .seconds(120)
            config.clusterSecret = secret
            // The cluster's own key, as the server derives it.
            config.formTokenKey = nil
            return config
        }
        let usersA = try await TestUsers.create(in: root.appendingPathComponent("a"))
        try await beforeStart(usersA)
        let a = try await buildApplication(configuration("a", demo: true))
        var configB = configuration("b", demo: false)
        configureB(&configB)
        let b = try await buildApplication(configB)
        try await a.test(.live) { rawA in
            try await b.test(.live) { rawB in
                let pair = Pair(a: Client(raw: rawA, users: usersA), b: Client(raw: rawB, users: usersA), users: usersA)
                try await withTimeout(30) {
                    // The admin account reaches B through the cloud.
                    while try await pair.b.as(.anonymous).get("/api/v1/players").text.contains(usersA.admin.handle) == false {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                try await body(pair)
            }
        }
    }

    /// The throwaway PostgreSQL server `make test` starts (scripts/with-postgres) that no test
    /// stops: the sync tests' outages on the other would make a sign-out here answer "try again".
    static func postgres() throws -> CloudAddress.PostgresAddress {
        let url = try #require(ProcessInfo.processInfo.environment["HYZER_TEST_PG_STEADY_URL"], "run with scripts/with-postgres (make test)")
        guard case .postgres(let address) = try CloudAddress.parse(url) else { throw TestFailure() }
        return address
    }

    struct TestFailure: Error {}

    /// Signs in through A's real form (its form token from A's sign-in page).
    static func signIn(_ client: Client, _ user: TestUser) async throws -> String {
        let page = try await client.as(.anonymous).get("/signin")
        let formCookie = try #require(page.headers[values: .setCookie].first { $0.hasPrefix(CSRF.cookieName + "=") }?.split(separator: ";").first)
        let response = try await client.as(.anonymous).postForm(
            "/signin", [("handle", user.handle), ("password", user.password), ("next", "/admin")], headers: [.cookie: String(formCookie)])
        #expect(response.status == .seeOther)
        let cookies = response.headers[values: .setCookie].compactMap { $0.split(separator: ";").first.map(String.init) }
        #expect(cookies.contains { $0.hasPrefix("hyzer_session=") })
        return cookies.filter { $0.hasPrefix("hyzer_session=") || $0.hasPrefix(CSRF.cookieName + "=") }.joined(separator: "; ")
    }

    @Test func aSessionAndAFormTokenFromOneInstanceServeOnTheOther() async throws {
        try await Self.withCluster { pair in
            let cookie = try await Self.signIn(pair.a, pair.users.admin)
            let onB = try await pair.b.as(.anonymous).get("/admin", headers: [.cookie: cookie])
            #expect(onB.status == .ok)
            #expect(onB.text.contains("Sign out @\(pair.users.admin.handle)"))
            // A form served by A, sent to B: B accepts its token (settings saved).
            let saved = try await pair.b.as(.anonymous).postForm(
                "/admin/settings", [("clubName", "Cluster Club"), ("tvPageSeconds", "10"), ("publicLeaderboards", "on")], headers: [.cookie: cookie])
            #expect(saved.status == .seeOther, "\(saved.text)")
            // Not the cluster's secret: its instance signs nobody in with the cluster's session.
            let stranger = try await pair.b.as(.anonymous).get(
                "/admin", headers: [.cookie: cookie.replacingOccurrences(of: "hyzer_session=", with: "hyzer_session=x")])
            #expect(stranger.status == .seeOther)
        }
    }

    @Test func signingOutEverywhereOnOneInstanceEndsTheSessionOnTheOtherWithinASecond() async throws {
        try await Self.withCluster { pair in
            let cookie = try await Self.signIn(pair.a, pair.users.coach)
            // B has read (and kept) the session.
            #expect(try await pair.b.as(.anonymous).get("/sync", headers: [.cookie: cookie]).status == .ok)
            #expect(try await pair.b.as(.anonymous).get("/sync", headers: [.cookie: cookie]).status == .ok)
            let out = try await pair.a.as(.anonymous).postForm("/signout/everywhere", [], headers: [.cookie: cookie])
            #expect(out.status == .seeOther)
            let ended = ContinuousClock.now
            var refused = false
            while !refused && ContinuousClock.now - ended < .seconds(1) {
                refused = try await pair.b.as(.anonymous).get("/sync", headers: [.cookie: cookie]).status == .seeOther
            }
            #expect(refused, "B still honoured the session a second after sign-out everywhere on A")
        }
    }

    @Test func aTokenIssuedForTheClusterWorksEverywhereUntilRevoked() async throws {
        let secret = "cluster-secret-\(UUID().uuidString)"
        try await Self.withCluster(secret: secret) { pair in
            let token = try await Accounts(stores: try await Stores(directory: pair.users.directory, mayRepair: false), credentials: nil, cost: 4)
                .issueToken(handle: pair.users.coach.handle, name: "local only")
            // A token of A's own data folder is not the cluster's.
            #expect(try await pair.b.as(.anonymous).get("/api/v1/sync", headers: [.authorization: "Bearer \(token)"]).status == .unauthorized)

            // `hyzer admin token` with the cluster's flags issues through the same credentials.
            let postgres = PostgresCloud(address: try Self.postgres(), logger: Logger(label: "test"))
            let pool = Task { try? await postgres.run() }
            defer { pool.cancel() }
            let cluster = try ClusterCredentials(cloud: postgres, secret: secret, logger: Logger(label: "test"))
            let clusterToken = try await cluster.newToken(for: pair.users.coach.playerID, name: "results script")
            let bearer: HTTPFields = [.authorization: "Bearer \(clusterToken)"]
            #expect(try await pair.a.as(.anonymous).get("/api/v1/sync", headers: bearer).status == .ok)
            #expect(try await pair.b.as(.anonymous).get("/api/v1/sync", headers: bearer).status == .ok)

            // Revoked on B's admin page: A, which kept the token's owner, refuses it within a second.
            let cookie = try await Self.signIn(pair.b, pair.users.admin)
            let id = try #require(try await cluster.tokenList().first { $0.name == "results script" }?.id)
            #expect(try await pair.b.as(.anonymous).get("/admin", headers: [.cookie: cookie]).text.contains("results script"))
            let revoked = try await pair.b.as(.anonymous).postForm("/admin/tokens/\(id.lowercasedText)/revoke", [], headers: [.cookie: cookie])
            #expect(revoked.status == .seeOther)
            let ended = ContinuousClock.now
            var refused = false
            while !refused && ContinuousClock.now - ended < .seconds(1) {
                refused = try await pair.a.as(.anonymous).get("/api/v1/sync", headers: bearer).status == .unauthorized
            }
            #expect(refused, "A still honoured the token a second after it was revoked on B")
        }
    }

    @Test func aScoreWrittenOnOneInstanceIsReadOnTheOtherAtOnce() async throws {
        // B hears of A's writes late (a slow link): only waiting for what the client has seen
        // answers with the score.
        try await Self.withCluster(configureB: { $0.sync.hintDelay = .milliseconds(300) }) { pair in
            let cookie = try await Self.signIn(pair.a, pair.users.coach)
            let signedIn: HTTPFields = [.cookie: cookie]
            let holes = (1...18).map { #"{"number":\#($0),"par":3}"# }.joined(separator: ",")
            let course = try await pair.a.as(.anonymous).postJSON(
                "/api/v1/courses", #"{"name":"Cluster Park","holes":[\#(holes)]}"#, headers: signedIn)
            let courseID = try #require(try course.json()["id"] as? String)
            let player = pair.users.athlete.playerID.lowercasedText
            let round = try await pair.a.as(.anonymous).postJSON(
                "/api/v1/rounds", #"{"courseID":"\#(courseID)","name":"Cluster night","start":true,"players":[{"playerID":"\#(player)"}]}"#,
                headers: signedIn)
            let roundID = try #require(try round.json()["id"] as? String)
            for hole in 1...18 {
                let posted = try await pair.a.as(.anonymous).postJSON(
                    "/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(player)","hole":\#(hole),"strokes":\#(2 + hole % 3)}"#,
                    headers: [.cookie: cookie])
                #expect(posted.status == .created)
                let seen = try #require(posted.headers[ReadYourWritesMiddleware.header])
                // Read at once on B by the writer with what the write answered: the score is
                // there, first time.
                let standings = try await pair.b.as(.anonymous).get(
                    "/api/v1/rounds/\(roundID)/standings", headers: [ReadYourWritesMiddleware.header: seen, .cookie: cookie])
                let row = try standings.json()["standings"].flatMap { $0 as? [[String: Any]] }?.first { $0["playerID"] as? String == player }
                #expect(row?["thru"] as? Int == hole, "B answered before it had the score of hole \(hole)")
            }
        }
    }

    // MARK: What a made-up Hyzer-Seen costs (issue 36, finding 4)

    /// Runs `body` with a client of the cluster's database.
    static func withDatabase<T: Sendable>(_ body: @Sendable (PostgresCloud) async throws -> T) async throws -> T {
        let postgres = PostgresCloud(address: try Self.postgres(), logger: Logger(label: "test"))
        let pool = Task { try? await postgres.run() }
        defer { pool.cancel() }
        return try await body(postgres)
    }

    /// Transactions the database has committed, once every connection has reported its own
    /// (an idle connection reports within a second of its last).
    static func committed(_ postgres: PostgresCloud) async throws -> Int64 {
        try await Task.sleep(for: .milliseconds(1_500))
        let rows = try await postgres.client.query("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")
        for try await (count) in rows.decode(Int64.self) { return count }
        throw TestFailure()
    }

    static let farAhead = String(Int64.max)

    @Test func aMadeUpSeenNumberOnAnAnonymousReadCostsTheDatabaseNothing() async throws {
        try await Self.withCluster { pair in
            try await Self.withDatabase { postgres in
                // The database is shared with the other tests running meanwhile: the same reads
                // without the number are the baseline. Reading the number cost one query each.
                func reads(_ forged: Bool) async throws -> Int64 {
                    let before = try await Self.committed(postgres)
                    for turn in 0..<300 {
                        let headers: HTTPFields =
                            !forged
                            ? [:]
                            : turn.isMultiple(of: 2) ? [ReadYourWritesMiddleware.header: Self.farAhead] : [.cookie: "hyzer_seen=\(Self.farAhead)"]
                        #expect(try await pair.b.as(.anonymous).get("/", headers: headers).status == .ok)
                    }
                    return try await Self.committed(postgres) - before
                }
                let plain = try await reads(false)
                let spent = try await reads(true)
                #expect(spent - plain < 150, "300 anonymous GET / with a made-up Hyzer-Seen cost \(spent) transactions, \(plain) without it")
            }
        }
    }

    // MARK: What a copy of the cluster's database holds (issue 36, finding 9)

    @Test func theDatabaseHoldsNoPasswordHashAndNoFastDigestOfTheSecretYetEveryInstanceSignsIn() async throws {
        let secret = "cluster-secret-\(UUID().uuidString)"
        try await Self.withCluster(secret: secret) { pair in
            // B took the accounts from the cloud: signing in there opens what A sealed.
            let cookie = try await Self.signIn(pair.b, pair.users.coach)
            #expect(try await pair.a.as(.anonymous).get("/sync", headers: [.cookie: cookie]).status == .ok)
            let fast = HMAC<SHA256>.authenticationCode(for: Data("hyzer-cluster".utf8), using: SymmetricKey(data: Data(secret.utf8))).prefix(8)
                .map { String(format: "%02x", $0) }.joined()
            try await Self.withDatabase { postgres in
                let zone = try await Self.zone(of: pair, postgres)
                let rows = try await postgres.client.query(
                    "SELECT convert_from(payload, 'UTF8') FROM hyzer_records WHERE zone = \(zone) AND type = 'player'")
                var payloads: [String] = []
                for try await (payload) in rows.decode(String.self) { payloads.append(payload) }
                #expect(payloads.count >= 3)
                #expect(payloads.allSatisfy { !$0.contains("$2") }, "a player record in the cloud holds a bcrypt hash: \(payloads)")
                #expect(payloads.contains { $0.contains(PasswordSeal.prefix) })
                var clusters: [String] = []
                for table in ["hyzer_sessions", "hyzer_api_tokens"] {
                    let named = try await postgres.client.query("SELECT DISTINCT cluster FROM \(unescaped: table)")
                    for try await (cluster) in named.decode(String.self) { clusters.append(cluster) }
                }
                #expect(!clusters.contains(fast), "rows are named by a fast digest of the secret")
                #expect(clusters.contains(try ClusterKeys(secret: secret).clusterID))
            }
        }
    }

    /// The zone the pair's instances share (the one holding A's demo players).
    static func zone(of pair: Pair, _ postgres: PostgresCloud) async throws -> String {
        let player = pair.users.admin.playerID.lowercasedText
        let rows = try await postgres.client.query("SELECT zone FROM hyzer_records WHERE type = 'player' AND id = \(player)")
        for try await (zone) in rows.decode(String.self) { return zone }
        throw TestFailure()
    }

    /// A cluster that ran an earlier version: its sessions and tokens, named by the fast id
    /// and digested under the fast key, are taken over on start and keep working.
    @Test func sessionsAndTokensOfAnEarlierVersionKeepWorking() async throws {
        let secret = "cluster-secret-\(UUID().uuidString)"
        let plain = SymmetricKey(data: Data(secret.utf8))
        let fastID = HMAC<SHA256>.authenticationCode(for: Data("hyzer-cluster".utf8), using: plain).prefix(8)
            .map { String(format: "%02x", $0) }.joined()
        let fastKey = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data("hyzer-credentials".utf8), using: plain)))
        let token = "hyz_earlier-version-token-\(UUID().uuidString)"
        let digest = HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: fastKey).map { String(format: "%02x", $0) }.joined()
        let earlier: @Sendable (TestUsers) async throws -> Void = { users in
            try await Self.withDatabase { postgres in
                // The tables as the earlier version made them, with a token it issued.
                let credentials = try ClusterCredentials(cloud: postgres, secret: "another-\(secret)", logger: Logger(label: "test"))
                _ = try await credentials.tokenList()
                let (coach, now) = (users.coach.playerID.lowercasedText, Date().timeIntervalSince1970)
                try await postgres.client.query(
                    """
                    INSERT INTO hyzer_api_tokens (cluster, id, digest, player_id, name, created_at)
                    VALUES (\(fastID), \(UUID().lowercasedText), \(digest), \(coach), 'earlier script', \(now))
                    """)
            }
        }
        try await Self.withCluster(secret: secret, beforeStart: earlier) { pair in
            let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
            #expect(try await pair.a.as(.anonymous).get("/api/v1/sync", headers: bearer).status == .ok)
            #expect(try await pair.b.as(.anonymous).get("/api/v1/sync", headers: bearer).status == .ok)
            try await Self.withDatabase { postgres in
                let left = try await postgres.client.query("SELECT COUNT(*)::BIGINT FROM hyzer_api_tokens WHERE cluster = \(fastID)")
                for try await (count) in left.decode(Int64.self) { #expect(count == 0) }
            }
        }
    }
}
