import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerCore
import HyzerSync
import Logging
import Testing

@testable import HyzerStore
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
        _ body: @Sendable (Pair) async throws -> Void
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
            let cluster = ClusterCredentials(cloud: postgres, secret: secret, logger: Logger(label: "test"))
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
                // Read at once on B with what the write answered: the score is there, first time.
                let standings = try await pair.b.as(.anonymous).get(
                    "/api/v1/rounds/\(roundID)/standings", headers: [ReadYourWritesMiddleware.header: seen])
                let row = try standings.json()["standings"].flatMap { $0 as? [[String: Any]] }?.first { $0["playerID"] as? String == player }
                #expect(row?["thru"] as? Int == hole, "B answered before it had the score of hole \(hole)")
            }
        }
    }
}
