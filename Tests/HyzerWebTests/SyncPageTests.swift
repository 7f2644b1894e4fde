import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import HyzerCore
import HyzerStore
import HyzerSync
import HyzerWeb
import NIOCore
import NIOPosix
import Testing

@Suite struct SyncPageTests {
    @Test func withoutACloudTheSyncPageSaysSo() async throws {
        try await withApp { client in
            let page = try await client.get("/sync")
            #expect(page.status == .ok)
            #expect(page.text.contains("No cloud configured"))
            #expect(page.text.contains("--cloud sqlite:PATH"))
            let json = try await client.get("/api/v1/sync").json()
            #expect(Set(json.keys).isSuperset(of: ["account", "state", "lastSyncAt", "pending", "inFlight", "failed"]))
            #expect(json["account"] as? String == "noAccount")
            #expect(json["state"] as? String == "idle")
        }
    }

    @Test func recordsKeptUnreadAreListedEscapedAndAnAdminDismissesThem() async throws {
        try await withApp { client in
            let stores = try await Stores(directory: client.users.directory)
            let hostile = UnreadableRecord(
                type: "trophy", id: "<b>trophy-3</b>", hlc: "x", payload: Data(#"{"note":"<script>alert(1)</script>"}"#.utf8),
                reason: UnreadableRecord.unknownType("trophy"))
            _ = try await stores.domain.applyRemote(stores.domain.prepareRemote([], unreadable: [hostile]))

            let sync = try await client.get("/sync")
            #expect(sync.text.contains("Records kept unread (1)"))
            #expect(!sync.text.contains("alert(1)"), "the payload is not on the sync page, which every member sees")
            #expect(sync.text.contains("&lt;b&gt;trophy-3") && !sync.text.contains("<b>trophy-3"))
            #expect(!sync.text.contains("/admin/quarantine/dismiss"), "the sync page, shown to every member, has no dismiss button")
            #expect(try await client.get("/api/v1/sync").json()["quarantined"] as? Int == 1)
            let admin = try await client.as(.admin).get("/admin").text
            #expect(admin.contains("action=\"/admin/quarantine/dismiss\""))
            #expect(admin.contains("&lt;script&gt;") && !admin.contains("<script>alert"), "the payload's start, escaped, for admins")

            let key = try #require(try await stores.domain.quarantined().first?.key)
            let fields = [("key", String(key))]
            #expect(try await client.postForm("/admin/quarantine/dismiss", fields).status == .forbidden, "a coach may not")
            let dismissed = try await client.as(.admin).postForm("/admin/quarantine/dismiss", fields)
            #expect(dismissed.status == .seeOther)
            #expect(try await stores.domain.quarantineCount() == 0)
            #expect(try await client.as(.admin).postForm("/admin/quarantine/dismiss", fields).status == .notFound)
            #expect(try await client.as(.admin).postForm("/admin/quarantine/dismiss", []).status == .unprocessableContent)
            #expect(try await client.as(.admin).get("/admin").text.contains("dismissed a record kept unread"))
        }
    }

    @Test func theSyncStatusStreamsLive() async throws {
        try await withLiveApp { port, client, http in
            try await withTimeout(20) {
                let stream = try await SSEStream.open(
                    http, port: port, path: "/sync/events", headers: [("Authorization", "Bearer \(client.users.athlete.token)")])
                #expect(stream.contentType == "text/event-stream")
                let first = try await stream.nextEvent()
                #expect(first.event == "sync")
                #expect(first.data.contains("id=\"sync-status\""))
                #expect(first.data.contains("No cloud configured"))
            }
        }
    }

    @Test func syncNowRedirectsBackToTheSyncPage() async throws {
        try await withApp { client in
            let response = try await client.postForm("/sync/now", [])
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/sync")
            let bad = try await client.postForm("/sync/retry", [("type", "spaceship"), ("id", "x")])
            #expect(bad.status == .unprocessableContent)
            let retry = try await client.postForm("/sync/retry", [])
            #expect(retry.status == .seeOther)
            let api = try await client.execute(uri: "/api/v1/sync/now", method: .post)
            #expect(api.status == .accepted)
        }
    }

    @Test func aScoreOnOneDeviceReachesTheOthersStandingsAndStream() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-two-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let cloud = CloudAddress.sqlite(path: root.appendingPathComponent("cloud.sqlite").path)
        let a = try await buildApplication(testConfiguration(root.appendingPathComponent("a"), seedDemo: true, cloud: cloud))
        let b = try await buildApplication(testConfiguration(root.appendingPathComponent("b"), seedDemo: false, cloud: cloud))
        let usersA = try await TestUsers.create(in: root.appendingPathComponent("a"))
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        // Shut down on failure too: a client dropped while running crashes the test process.
        do {
            try await a.test(.live) { rawA in
                let clientA = Client(raw: rawA, users: usersA)
                // A's test connection asks at once: a connection that sends no request head for
                // the server's header timeout (10 s) is closed, and B's first sync may take that
                // long on a loaded machine.
                let playerID = try #require(try await clientA.roundDetail(try await clientA.demoRoundID()).playerIDs().last)
                try await b.test(.live) { rawB in
                    // B has no users of its own: it only reads, as anyone may.
                    let clientB = Client(raw: rawB, users: usersA).as(.anonymous)
                    try await withTimeout(30) {
                        // B starts empty and receives A's demo round by itself.
                        var rounds: [[String: Any]] = []
                        while rounds.isEmpty {
                            rounds = try await clientB.get("/api/v1/rounds").json()["rounds"] as? [[String: Any]] ?? []
                            if rounds.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
                        }
                        let roundID = try #require(rounds.first?["id"] as? String)
                        // Wait until B has the whole round: its players and their demo scores.
                        var rows = 0
                        while rows != 6 {
                            let standings = try? await clientB.get("/api/v1/rounds/\(roundID)/standings").json()
                            rows = (standings?["standings"] as? [Any])?.count ?? 0
                            if rows != 6 { try await Task.sleep(for: .milliseconds(50)) }
                        }
                        let stream = try await SSEStream.open(http, port: try #require(clientB.port), path: "/rounds/\(roundID)/events")
                        let first = try await stream.nextEvent()
                        // The coach created on A has reached B; a token issued on B lets the test follow B's sync page.
                        let tokenB = try await Accounts(stores: try await Stores(directory: root.appendingPathComponent("b")), cost: 4).issueToken(
                            handle: usersA.coach.handle, name: "test")
                        let syncStream = try await SSEStream.open(
                            http, port: try #require(clientB.port), path: "/sync/events", headers: [("Authorization", "Bearer \(tokenB)")])
                        let syncFirst = try await syncStream.nextEvent()

                        let posted = try await clientA.postJSON(
                            "/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(playerID)","hole":18,"strokes":2}"#)
                        #expect(posted.status == .created)
                        let expected = try await clientA.standings(roundID).row(playerID)?["strokes"] as? Int
                        // Remote sync recomputes B's standings and publishes them to B's stream.
                        var event = try await stream.nextEvent()
                        while !event.data.contains("<td class=\"strokes\">\(expected ?? -1)</td>") { event = try await stream.nextEvent() }
                        #expect(Int(event.id ?? "") ?? 0 > Int(first.id ?? "") ?? 0)
                        #expect(try await clientB.standings(roundID).row(playerID)?["strokes"] as? Int == expected)
                        // The pull changed B's sync status: its sync page stream shows a newer state.
                        let syncNext = try await syncStream.nextEvent()
                        #expect(syncNext.event == "sync")
                        #expect(Int(syncNext.id ?? "") ?? 0 > Int(syncFirst.id ?? "") ?? 0)

                        let signedIn: HTTPFields = [.authorization: "Bearer \(tokenB)"]
                        let status = try await clientB.get("/api/v1/sync", headers: signedIn).json()
                        #expect(status["account"] as? String == "available")
                        #expect(status["lastSyncAt"] is String)
                        let page = try await clientB.get("/sync", headers: signedIn)
                        #expect(page.text.contains("Connected"))
                        #expect(page.text.contains("<td>pull</td>"))
                    }
                }
            }
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }

    @Test func aCloudHostThatHangsDoesNotDelayTheFirstPage() async throws {
        // A listener that accepts and never answers, standing in for a dead database host.
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { $0.eventLoop.makeSucceededVoidFuture() }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(listener.localAddress?.port)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-hang-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cloud = try CloudAddress.parse("postgres://nobody@127.0.0.1:\(port)/none")
        // The cloud is given two minutes to answer: a page that waited for it would take that
        // long, far beyond any stall of a loaded machine (5 s was not: 5.06 s seen in CI).
        var configuration = testConfiguration(directory, cloud: cloud, logLevel: .critical)
        configuration.cloudConnectTimeout = .seconds(120)
        configuration.sync.accountTimeout = .seconds(120)
        let app = try await buildApplication(configuration)
        let users = try await TestUsers.create(in: directory)
        try await app.test(.live) { raw in
            let client = Client(raw: raw, users: users)
            let started = ContinuousClock.now
            let home = try await client.get("/")
            #expect(home.status == .ok)
            #expect(ContinuousClock.now - started < .seconds(60), "the first page waited for the cloud")
            let sync = try await client.get("/api/v1/sync").json()
            #expect(sync["account"] as? String == "couldNotDetermine", "the cloud has not answered yet: \(sync["account"] ?? "")")
            // Scoring works while the cloud hangs.
            let roundID = try await client.demoRoundID()
            let playerID = try #require(try await client.roundDetail(roundID).playerIDs().last)
            let posted = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(playerID)","hole":18,"strokes":3}"#)
            #expect(posted.status == .created)
        }
        try await listener.close()
    }
}
