import Foundation
import Hummingbird
import HummingbirdTesting
import HyzerCore
import Testing

@testable import HyzerStore
@testable import HyzerWeb

/// The findings of an attacker's pass that live in the app's answers: each test fails with
/// its fix taken out.
@Suite struct AttackerFindingsTests {
    // MARK: CSV

    /// `=` then a zero-width joiner is one Swift `Character`: the guard must look at scalars.
    @Test(arguments: ["=\u{200D}cmd|' /C calc'!A0", "=\u{0301}1+1", "+\u{200D}1", "@SUM(A1)", "\tcmd", "\r=1", "-\u{200D}2+3"])
    func aCellThatStartsLikeAFormulaIsExportedAsText(_ name: String) async throws {
        #expect(CSVTables.neutralized(name) == "'" + name)
        try await withApp(seedDemo: false) { client in
            let body = try JSONSerialization.data(withJSONObject: ["displayName": name, "handle": "formula"])
            let created = try await client.postJSON("/api/v1/players", String(decoding: body, as: UTF8.self))
            guard created.status == .created else {
                // A name the validation refuses (a tab, a carriage return) cannot be exported at all.
                #expect(created.status == .unprocessableContent, "\(created.text)")
                return
            }
            let player = try created.json()
            let course = try await client.postJSON("/api/v1/courses", #"{"name":"C","holes":[{"number":1,"par":3}]}"#).json()
            let round = try await client.postJSON(
                "/api/v1/rounds", "{\"courseID\":\"\(course["id"] ?? "")\",\"players\":[{\"playerID\":\"\(player["id"] ?? "")\"}]}"
            ).json()
            let export = try await client.get("/rounds/\(round["id"] ?? "")/results.csv").text
            // As stored (trimmed like every name), and then neutralized.
            let stored = try #require(player["displayName"] as? String)
            #expect(export.contains(CSVTables.neutralized(stored)), "\(export)")
            #expect(!stored.unicodeScalars.first.map { "=+-@".unicodeScalars.contains($0) }! || export.contains("'" + stored))
        }
    }

    @Test func numbersAndPlainTextAreExportedAsTheyAre() {
        #expect(CSVTables.neutralized("-3") == "-3")
        #expect(CSVTables.neutralized("+2") == "+2")
        // Amounts in the money ledger: a spreadsheet adds them up only as numbers.
        #expect(CSVTables.neutralized("-2.10") == "-2.10")
        #expect(CSVTables.neutralized("-2.") == "'-2." && CSVTables.neutralized("-1.2.3") == "'-1.2.3" && CSVTables.neutralized("-.5") == "'-.5")
        #expect(CSVTables.neutralized("Ada = Lovelace") == "Ada = Lovelace")
        #expect(CSVTables.neutralized("") == "")
    }

    @Test func aCSVImportOverItsLimitSaysItsOwnLimit() async throws {
        try await withApp(seedDemo: false) { client in
            let big = "name,handle\n" + String(repeating: "x", count: CSVTables.maxBytes + 10)
            let response = try await CSVTests.postCSV(client, "/api/v1/players/import", big)
            #expect(response.status == .contentTooLarge)
            #expect(response.text.contains("256 KB"), "\(response.text)")
        }
    }

    // MARK: Names

    @Test(arguments: ["Card\u{0}1", "Card\r1", "Card\u{1B}[31m", "Card 1\r", "e" + String(repeating: "\u{301}", count: 5000)])
    func aCardNameWithControlCharactersIsRefusedLikeEveryName(_ name: String) async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let players = try await client.roundDetail(roundID).playerIDs()
            let body = try JSONSerialization.data(withJSONObject: [
                "cards": [["name": name, "startingHole": 1, "playerIDs": Array(players.prefix(2))]]
            ])
            let response = try await client.postJSON("/api/v1/rounds/\(roundID)/cards", String(decoding: body, as: UTF8.self))
            let cards = try await client.get("/api/v1/rounds/\(roundID)/cards").json()["cards"] as? [[String: Any]] ?? []
            if name.hasSuffix("\r") {
                // Stray whitespace at the ends is trimmed, as for every name, and never kept.
                #expect(response.status == .ok, "\(response.text)")
                #expect(cards.map { $0["name"] as? String } == ["Card 1"])
            } else {
                #expect(response.status == .unprocessableContent, "\(response.text.prefix(300))")
                #expect(response.text.contains("control characters") || response.text.contains("at most 40"))
                #expect(cards.isEmpty)
            }
        }
    }
}

/// The same findings where the client's address, the socket or the connection count matter:
/// a real server on a socket, with 127.0.0.1 as a trusted proxy where a test plays several
/// addresses through `X-Forwarded-For`.
@Suite struct AttackerFindingsLiveTests {
    static func signIn(_ client: Client, _ handle: String, _ password: String, from address: String) async throws -> TestResponse {
        try await client.as(.anonymous).postForm(
            "/signin", [("handle", handle), ("password", password)], headers: address.isEmpty ? [:] : [TrustedProxies.forwardedFor: address])
    }

    // MARK: Sign-in

    @Test func strangersCannotLockTheOwnerOut() async throws {
        try await withLiveApp(configure: { $0.trustedProxies = ["127.0.0.1"] }) { _, client, _ in
            let admin = client.users.admin
            for _ in 0..<5 {
                let answer = try await Self.signIn(client, admin.handle, "a wrong guess", from: "203.0.113.9")
                #expect(answer.status == .unauthorized)
            }
            #expect(try await Self.signIn(client, admin.handle, admin.password, from: "203.0.113.9").status == .tooManyRequests)
            // The owner, from any other address: in at once.
            #expect(try await Self.signIn(client, admin.handle, admin.password, from: "198.51.100.7").status == .seeOther)
            // Through a chain of trusted proxies, the address before them is the client's.
            #expect(try await Self.signIn(client, admin.handle, admin.password, from: "203.0.113.9, 127.0.0.1").status == .tooManyRequests)
        }
    }

    @Test func aForwardedAddressCountsOnlyBehindATrustedProxy() async throws {
        try await withLiveApp { _, client, _ in
            let admin = client.users.admin
            for index in 0..<5 {
                _ = try await Self.signIn(client, admin.handle, "a wrong guess", from: "203.0.113.\(index)")
            }
            // Every one of those came from 127.0.0.1, whatever the header said.
            #expect(try await Self.signIn(client, admin.handle, admin.password, from: "198.51.100.7").status == .tooManyRequests)
        }
    }

    @Test func aPasswordResetLiftsTheCount() async throws {
        try await withLiveApp { _, client, _ in
            let coach = client.users.coach
            for _ in 0..<5 { _ = try await Self.signIn(client, coach.handle, "a wrong guess", from: "") }
            #expect(try await Self.signIn(client, coach.handle, coach.password, from: "").status == .tooManyRequests)
            // As `hyzer admin reset-password` does it: another process, the same data.
            let accounts = Accounts(stores: try await Stores(directory: client.users.directory, mayRepair: false), cost: 4)
            _ = try await accounts.resetPassword(handle: coach.handle, password: "a brand new password")
            #expect(try await Self.signIn(client, coach.handle, "a brand new password", from: "").status == .seeOther)
        }
    }

    @Test func anonymousReadersAreNotToldWhoTheAdminsAre() async throws {
        try await withApp { client in
            let anonymous = try await client.as(.anonymous).get("/api/v1/players").json()["players"] as? [[String: Any]] ?? []
            #expect(!anonymous.isEmpty)
            #expect(anonymous.allSatisfy { $0["role"] == nil && $0["handle"] != nil })
            let member = try await client.as(.athlete).get("/api/v1/players").json()["players"] as? [[String: Any]] ?? []
            #expect(member.contains { $0["role"] as? String == "admin" })
        }
    }

    // MARK: Sign-up

    @Test func signUpsFromOneAddressAreLimited() async throws {
        try await withLiveApp(configure: { $0.trustedProxies = ["127.0.0.1"] }) { _, client, _ in
            try await client.as(.admin).postForm(
                "/admin/settings", [("clubName", "Club"), ("tvPageSeconds", "10"), ("publicLeaderboards", "1"), ("openSignUp", "1")]
            )
            .expectRedirect()
            // Forms that are refused cost no hash, and count nothing.
            for index in 0..<25 {
                let fields = [("displayName", "Joiner \(index)"), ("handle", "joiner\(index)"), ("password", "short")]
                #expect(
                    try await client.as(.anonymous).postForm("/join", fields, headers: [TrustedProxies.forwardedFor: "203.0.113.50"]).status
                        == .unprocessableContent)
            }
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<21 {
                let fields = [("displayName", "Joiner \(index)"), ("handle", "joiner\(index)"), ("password", "a long enough password")]
                statuses.append(
                    try await client.as(.anonymous).postForm("/join", fields, headers: [TrustedProxies.forwardedFor: "203.0.113.50"]).status)
            }
            #expect(statuses.prefix(20).allSatisfy { $0 == .seeOther }, "\(statuses)")
            #expect(statuses.last == .tooManyRequests)
            // Another address still joins.
            let other = try await client.as(.anonymous).postForm(
                "/join", [("displayName", "Other"), ("handle", "other.one"), ("password", "a long enough password")],
                headers: [TrustedProxies.forwardedFor: "198.51.100.1"])
            #expect(other.status == .seeOther)
        }
    }

    @Test func passwordWorkBeyondItsLineIsRefusedAtOnce() async throws {
        let work = PasswordWork(concurrency: 1, queueLimit: 2)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (try? await work.run {
                        Thread.sleep(forTimeInterval: 0.2)
                        return true
                    }) ?? false
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        // One running and two waiting: the rest were told to come back.
        #expect(outcomes.filter { $0 }.count == 3)
        #expect(try await work.run { 42 } == 42, "the slots are all given back")
    }

    @Test func anIPv6ClientIsCountedByItsNetwork() throws {
        #expect(TrustedProxies.limitKey("2001:db8:0:1::1") == "2001:db8:0:1::/64")
        #expect(TrustedProxies.limitKey("2001:db8:0:1:ffff:1234:5:78") == "2001:db8:0:1::/64")
        #expect(TrustedProxies.limitKey("2001:db8:0:2::1") != TrustedProxies.limitKey("2001:db8:0:1::1"))
        #expect(TrustedProxies.limitKey("203.0.113.9") == "203.0.113.9")
        #expect(TrustedProxies.limitKey("::ffff:203.0.113.9") == "203.0.113.9")
        let proxies = try TrustedProxies(parsing: ["10.0.0.0/8", "::1"])
        #expect(proxies.client(peer: "10.1.2.3", forwarded: ["198.51.100.7, 10.9.9.9"]) == "198.51.100.7")
        #expect(proxies.client(peer: "10.1.2.3", forwarded: ["forged, 198.51.100.7"]) == "198.51.100.7")
        #expect(proxies.client(peer: "203.0.113.9", forwarded: ["198.51.100.7"]) == "203.0.113.9", "an untrusted peer's header is ignored")
        #expect(throws: TrustedProxies.InvalidProxy.self) { try TrustedProxies(parsing: ["10.0.0.0/33"]) }
    }

    @Test func oneClientsIdleConnectionsCannotTakeTheRest() async throws {
        // A share of 2 streams: 66 connections of any kind per client address.
        try await withLiveApp(configure: { $0.maxStreamsPerClient = 2 }) { port, _, _ in
            var held: [RawSocket] = []
            defer { held.forEach { $0.close() } }
            var refusedAt: Int?
            for index in 0..<80 where refusedAt == nil {
                let socket = try RawSocket(port: port, sending: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                held.append(socket)
                if !(try await socket.readUntil("200 OK", timeout: 10)) { refusedAt = index }
            }
            let refused = try #require(refusedAt)
            #expect(refused <= 66 && refused >= 60, "refused at \(refused)")
            #expect(try await held[refused].readToEnd(timeout: 5), "closed at once")
            held[0].close()
            // A connection given back makes room, once the server has seen it close: until
            // then a new one is refused at once, so ask until one is served.
            try await waitUntil {
                let again = try RawSocket(port: port, sending: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                held.append(again)
                return try await again.readUntil("200 OK", timeout: 10)
            }
        }
    }

    // MARK: Live streams

    static func openStream(_ port: Int, _ roundID: String, from address: String? = nil) throws -> RawSocket {
        let forwarded = address.map { "X-Forwarded-For: \($0)\r\n" } ?? ""
        return try RawSocket(port: port, sending: "GET /rounds/\(roundID)/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\(forwarded)\r\n")
    }

    @Test func oneClientGetsItsShareOfStreamsAndPagesStillAnswer() async throws {
        try await withLiveApp(configure: {
            $0.maxStreamsPerClient = 4
            $0.trustedProxies = ["127.0.0.1"]
        }) { port, client, _ in
            let roundID = try await client.demoRoundID()
            var open: [RawSocket] = []
            defer { open.forEach { $0.close() } }
            for _ in 0..<4 {
                let stream = try Self.openStream(port, roundID, from: "203.0.113.9")
                open.append(stream)
                #expect(try await stream.readUntil("event: standings", timeout: 10))
            }
            let refused = try Self.openStream(port, roundID, from: "203.0.113.9")
            open.append(refused)
            let answer = try await refused.read(until: "\r\n\r\n", timeout: 10)
            #expect(answer.hasPrefix("HTTP/1.1 429"), "\(answer)")
            #expect(answer.lowercased().contains("retry-after: 30"))
            #expect(answer.lowercased().contains("x-content-type-options: nosniff"))
            // Another client still follows the round, and pages answer.
            let other = try Self.openStream(port, roundID, from: "198.51.100.7")
            open.append(other)
            #expect(try await other.readUntil("event: standings", timeout: 10))
            #expect(try await client.get("/healthz").status == .ok)
            // A share is given back when its stream closes.
            open[0].close()
            // Given back once the server has seen the close: until then a new one is refused.
            try await waitUntil {
                let again = try Self.openStream(port, roundID, from: "203.0.113.9")
                open.append(again)
                return try await again.readUntil("event: standings", timeout: 10)
            }
        }
    }

    @Test func streamsNeverTakeTheLastConnections() async throws {
        // 40 connections: streams may hold 24 (a share of 16 is kept for everything else).
        try await withLiveApp(configure: {
            $0.maxConnections = 40
            $0.maxStreamsPerClient = 0
        }) { port, client, _ in
            let roundID = try await client.demoRoundID()
            var open: [RawSocket] = []
            defer { open.forEach { $0.close() } }
            // Streams until one is refused: that comes once 24 are held, never before.
            var refusal: String?
            for _ in 0..<40 where refusal == nil {
                let stream = try Self.openStream(port, roundID)
                open.append(stream)
                let answer = try await stream.read(until: "event: standings", timeout: 10)
                if !answer.contains("event: standings") { refusal = answer }
            }
            let answer = try #require(refusal)
            #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
            #expect(answer.lowercased().contains("retry-after"))
            #expect(open.count - 1 >= 24)
            for _ in 0..<5 {
                #expect(try await client.get("/healthz").status == .ok)
                #expect(try await client.get("/").status == .ok)
            }
        }
    }

    @Test func answersMadeOutsideTheRouterCarryTheSecurityHeaders() async throws {
        try await withLiveApp { port, client, _ in
            let roundID = try await client.demoRoundID()
            let stream = try Self.openStream(port, roundID)
            defer { stream.close() }
            let head = try await stream.read(until: "\r\n\r\n", timeout: 10).lowercased()
            let missing = try RawSocket(port: port, sending: "GET /rounds/\(UUID().uuidString)/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            defer { missing.close() }
            let notFound = try await missing.read(until: "\r\n\r\n", timeout: 10).lowercased()
            let badHost = try RawSocket(port: port, sending: "GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n")
            defer { badHost.close() }
            let refused = try await badHost.read(until: "\r\n\r\n", timeout: 10).lowercased()
            let methods = [
                try await client.execute(uri: "/healthz", method: .delete), try await client.execute(uri: "/api/v1/rounds", method: .delete),
            ]
            for answer in methods {
                #expect(answer.status == .methodNotAllowed)
                #expect(answer.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'self'") == true)
                #expect(answer.headers[.xContentTypeOptions] == "nosniff")
            }
            #expect(notFound.hasPrefix("http/1.1 404"), "\(notFound)")
            #expect(refused.hasPrefix("http/1.1 400"), "\(refused)")
            for answer in [head, notFound, refused] {
                #expect(answer.contains("content-security-policy: default-src 'self'"), "\(answer)")
                #expect(answer.contains("x-content-type-options: nosniff"))
                #expect(answer.contains("referrer-policy: same-origin"))
                #expect(answer.contains("x-frame-options: deny"))
            }
        }
    }

    // MARK: Form tokens

    @Test func aPlantedFormTokenIsRefused() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let (cookie, _) = try await AccountTests.signIn(client, client.users.coach)
            let session = try #require(
                cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("hyzer_session=") })
            let player = try #require(try await client.roundDetail(roundID).playerIDs().first)
            // A token of the attacker's choosing, as a sibling site or a network attacker can plant it.
            let planted = String(repeating: "p", count: 43)
            let forged = try await client.as(.anonymous).postForm(
                "/rounds/\(roundID)/scores", [("playerID", player), ("hole", "12"), ("strokes", "3")],
                headers: [.cookie: "\(CSRF.cookieName)=\(planted); \(session)"])
            #expect(forged.status == .forbidden)
            // A real token, but handed out before this sign-in (to the attacker, anonymously).
            let stale = try await client.as(.anonymous).postForm(
                "/rounds/\(roundID)/scores", [("playerID", player), ("hole", "12"), ("strokes", "3")],
                headers: [.cookie: "\(CSRF.cookieName)=\(Client.formToken); \(session)"])
            #expect(stale.status == .forbidden)
            // The one the sign-in handed out works.
            let good = try await client.as(.anonymous).postForm(
                "/rounds/\(roundID)/scores", [("playerID", player), ("hole", "12"), ("strokes", "3")], headers: [.cookie: cookie])
            #expect(good.status == .seeOther, "\(good.text)")
        }
    }

    @Test func theFormTokenRotatesAtSignInAndSignOut() async throws {
        try await withApp { client in
            let (cookie, signedIn) = try await AccountTests.signIn(client, client.users.coach)
            let afterSignIn = try #require(Client.formToken(in: cookie))
            #expect(afterSignIn != Client.formToken)
            #expect(signedIn.headers[values: .setCookie].contains { $0.hasPrefix(CSRF.cookieName + "=") })
            let out = try await client.as(.anonymous).postForm("/signout", [], headers: [.cookie: cookie])
            #expect(out.status == .seeOther)
            let rotated = try #require(out.headers[values: .setCookie].first { $0.hasPrefix(CSRF.cookieName + "=") })
            let afterSignOut = String(rotated.dropFirst(CSRF.cookieName.count + 1).prefix { $0 != ";" })
            #expect(afterSignOut != afterSignIn)
            // Valid for a browser with no session, and the signed-in one is not.
            #expect(testFormKey.isValid(afterSignOut, binding: ""))
            #expect(!testFormKey.isValid(afterSignIn, binding: ""))
        }
    }

    // MARK: Metrics

    @Test func withATokenMetricsAreTheOperatorsAlone() async throws {
        let token = "a-metrics-token-of-some-length"
        try await withApp(configure: { $0.metricsToken = token }) { client in
            #expect(try await client.as(.anonymous).get("/metrics").status == .unauthorized)
            #expect(try await client.as(.coach).get("/metrics").status == .unauthorized)
            #expect(
                try await client.as(.anonymous).get("/metrics", headers: [.authorization: "Bearer wrong-token-of-some-length"]).status
                    == .unauthorized)
            let scrape = try await client.as(.anonymous).get("/metrics", headers: [.authorization: "Bearer \(token)"])
            #expect(scrape.status == .ok)
            #expect(scrape.text.contains("hyzer_"))
            #expect(try await client.as(.admin).get("/metrics").status == .ok)
        }
    }

    @Test func withoutATokenMetricsFollowTheLeaderboards() async throws {
        try await withApp { client in
            #expect(try await client.as(.anonymous).get("/metrics").status == .ok)
            try await client.as(.admin).postForm("/admin/settings", [("clubName", "Club"), ("tvPageSeconds", "10")]).expectRedirect()
            let anonymous = try await client.as(.anonymous).get("/metrics")
            #expect(anonymous.status != .ok)
            #expect(try await client.as(.athlete).get("/metrics").status == .ok)
        }
    }
}

extension TestResponse {
    func expectRedirect(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == .seeOther, "\(text.prefix(300))", sourceLocation: sourceLocation)
    }
}

/// A backup's manifest says when, where and why it was made: what can be checked is, and the
/// rest is shown as the file's claim.
@Suite struct BackupClaimTests {
    /// A real downloaded backup with its manifest changed by `edit`, and the archive rebuilt
    /// around it (sizes, digests and counts as the attacker would recompute them).
    static func forged(_ admin: Client, _ edit: (inout BackupManifest) -> Void) async throws -> ByteBuffer {
        #expect(try await admin.postForm("/admin/backups", []).status == .seeOther)
        let record = try #require(admin.backupsFolder.records().first)
        let download = try await admin.get("/admin/backups/\(record.id)")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("forge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let original = work.appendingPathComponent("original.tar.gz")
        try Data(download.body.readableBytesView).write(to: original)
        var manifest = try BackupArchive.verify(original, into: work, progress: { _ in })
        edit(&manifest)
        let forged = work.appendingPathComponent("forged.tar.gz")
        try BackupArchive.write(manifest, from: work, to: forged, progress: { _ in })
        return ByteBuffer(data: try Data(contentsOf: forged))
    }

    @Test func anUploadsTimeAndReasonAreShownAsItsClaim() async throws {
        try await withApp { client in
            let admin = client.as(.admin)
            let claimed = Date(timeIntervalSince1970: 978_307_200)  // 1 January 2001
            let body = try await Self.forged(admin) { $0.createdAt = claimed }
            let uploaded = try await admin.upload(body)
            #expect(uploaded.status == .created, "\(uploaded.text)")
            let confirm = try await admin.get(try #require(try uploaded.json()["location"] as? String)).text
            #expect(confirm.contains(Format.timestamp(claimed)))
            #expect(confirm.contains("claimed by the file"))
            #expect(confirm.contains("(this server)"))
            #expect(confirm.contains("checked against its database"))
        }
    }

    @Test func aClaimThatCanBeCheckedAndIsFalseIsRefused() async throws {
        try await withApp { client in
            let admin = client.as(.admin)
            let otherDevice = try await Self.forged(admin) { $0.deviceID = UUID() }
            let wrongSchema = try await Self.forged(admin) { manifest in
                manifest.files = manifest.files.map { file in
                    var file = file
                    if file.name == "domain.sqlite" { file.schema = "v1-initial" }
                    return file
                }
            }
            for body in [otherDevice, wrongSchema] {
                let answer = try await admin.upload(body)
                #expect(answer.status == .unprocessableContent, "\(answer.text)")
            }
            let failures = admin.backupsFolder.records().compactMap(\.failure)
            #expect(failures.contains { $0.contains("belongs to") })
            #expect(failures.contains { $0.contains("manifest claims") })
        }
    }
}
