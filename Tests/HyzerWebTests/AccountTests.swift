import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerCore
import HyzerStore
import HyzerSync
import Logging
import Testing

@testable import HyzerWeb

@Suite struct AccountTests {
    /// Signs in through the real form and returns the browser's cookies: the session and the
    /// form token the sign-in handed out with it (the one before is no longer valid).
    static func signIn(_ client: Client, _ user: TestUser, password: String? = nil) async throws -> (cookie: String, response: TestResponse) {
        let anonymous = client.as(.anonymous)
        let response = try await anonymous.postForm(
            "/signin", [("handle", user.handle), ("password", password ?? user.password), ("next", "/admin")])
        func cookie(_ name: String) -> String? {
            response.headers[values: .setCookie].first { $0.hasPrefix(name + "=") }?.split(separator: ";").first.map(String.init)
        }
        guard let session = cookie("hyzer_session") else { return ("\(CSRF.cookieName)=\(Client.formToken)", response) }
        return ("\(cookie(CSRF.cookieName) ?? ""); \(session)", response)
    }

    @Test func signingInGivesASessionCookieThatIsHttpOnlyAndLax() async throws {
        try await withApp { client in
            let (cookie, response) = try await Self.signIn(client, client.users.admin)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/admin")
            let setCookie = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("hyzer_session=") })
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax"))
            let admin = try await client.as(.anonymous).get("/admin", headers: [.cookie: cookie])
            #expect(admin.status == .ok)
            #expect(admin.text.contains("Sign out @ada.admin"))
        }
    }

    @Test func aWrongPasswordAndAnUnknownHandleGetTheSameAnswer() async throws {
        try await withApp { client in
            let wrong = try await client.as(.anonymous).postForm("/signin", [("handle", "ada.admin"), ("password", "not the password")])
            let unknown = try await client.as(.anonymous).postForm("/signin", [("handle", "nobody.here"), ("password", "not the password")])
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
            #expect(wrong.text == unknown.text.replacingOccurrences(of: "nobody.here", with: "ada.admin"))
            #expect(!wrong.headers[values: .setCookie].contains { $0.hasPrefix("hyzer_session=") })
        }
    }

    @Test func failedSignInsAreThrottledPerHandle() async throws {
        try await withApp { client in
            for _ in 0..<5 {
                #expect(try await Self.signIn(client, client.users.coach, password: "wrong password!").response.status == .unauthorized)
            }
            let throttled = try await Self.signIn(client, client.users.coach).response
            #expect(throttled.status == .tooManyRequests)
            let wait = try #require(throttled.headers[.retryAfter].flatMap { Int($0) })
            #expect(wait > 0 && wait <= 15 * 60)
            #expect(!throttled.headers[values: .setCookie].contains { $0.hasPrefix("hyzer_session=") })
        }
    }

    static func guess(_ client: Client, _ handle: String) async throws -> HTTPResponse.Status {
        try await client.as(.anonymous).postForm("/signin", [("handle", handle), ("password", "a wrong guess")]).status
    }

    @Test func theThrottleReadsHandlesAsSignInDoes() async throws {
        try await withApp { client in
            // Variants of one handle are one key: padding and case do not buy new guesses.
            var answers: [HTTPResponse.Status] = []
            for variant in ["cory.coach\n", " CORY.COACH", "@cory.coach", "cory.coach\n\n", "cory.coach"] {
                answers.append(try await Self.guess(client, variant))
            }
            let real = try await Self.signIn(client, client.users.coach).response.status
            #expect(answers == Array(repeating: .unauthorized, count: 5))
            #expect(real == .tooManyRequests)
        }
    }

    @Test func signingInToOnesOwnAccountDoesNotResetTheAddressCount() async throws {
        try await withApp { client in
            // Guesses spread over many handles from one address, under each handle's own limit.
            var answers: [HTTPResponse.Status] = []
            let limit = SignInGuard().addressLimit
            for index in 0..<(limit - 1) { answers.append(try await Self.guess(client, "user\(index % 7)")) }
            answers.append(try await Self.signIn(client, client.users.athlete).response.status)
            answers.append(try await Self.guess(client, "ada.admin"))
            answers.append(try await Self.guess(client, "cory.coach"))
            #expect(answers == Array(repeating: .unauthorized, count: limit - 1) + [.seeOther, .unauthorized, .tooManyRequests])
        }
    }

    /// The invite link on the page an invite answers with.
    static func inviteToken(_ response: TestResponse) throws -> String {
        try #require(response.text.firstMatch(of: /join\?invite=([A-Za-z0-9_-]+)/).map { String($0.1) })
    }

    @Test func aCoachCanNeitherMakeNorClaimAnAdmin() async throws {
        try await withApp { client in
            let coach = client.as(.coach)
            let admin = client.as(.admin)
            let refused = try await coach.postForm("/players", [("displayName", "Mallory"), ("handle", "mallory"), ("role", "admin")])
            #expect(refused.status == .unprocessableContent)
            let form = try await coach.get("/players/new").text
            #expect(!form.contains(#"value="admin""#), "a coach is not offered the admin role")
            // An admin-role player made by an admin cannot be claimed through a coach's invite,
            // nor through an invite of a lower role.
            #expect(try await admin.postForm("/players", [("displayName", "Mallory"), ("handle", "mallory"), ("role", "admin")]).status == .seeOther)
            let coachInvites = try await coach.get("/invites").text
            #expect(!coachInvites.contains("Mallory"), "a coach is not offered an admin's profile")
            let adminPage = try await admin.get("/invites").text
            let malloryID = try #require(adminPage.firstMatch(of: /value="([0-9a-f-]{36})">Mallory/).map { String($0.1) })
            #expect(try await coach.postForm("/invites", [("role", "athlete"), ("playerID", malloryID)]).status == .unprocessableContent)
            #expect(
                try await admin.postForm("/invites", [("role", "athlete"), ("playerID", malloryID)]).status == .unprocessableContent,
                "not even an admin's athlete invite covers an admin profile")
            // A profile promoted after its invite was issued can no longer be claimed with it.
            #expect(try await coach.postForm("/players", [("displayName", "Pat"), ("handle", "pat")]).status == .seeOther)
            let patID = try #require(try await coach.get("/invites").text.firstMatch(of: /value="([0-9a-f-]{36})">Pat/).map { String($0.1) })
            let invite = try Self.inviteToken(try await coach.postForm("/invites", [("role", "athlete"), ("playerID", patID)]))
            #expect(try await admin.postForm("/admin/users/\(patID)/role", [("role", "admin")]).status == .seeOther)
            let claim = try await client.as(.anonymous).postForm("/join", [("invite", invite), ("password", "pat password 12")])
            #expect(claim.status == .forbidden)
            #expect(!claim.headers[values: .setCookie].contains { $0.hasPrefix("hyzer_session=") })
        }
    }

    @Test func joiningByInviteGivesTheInvitesRoleAndOpenSignUpGivesAthletes() async throws {
        try await withApp { client in
            let browser = client.as(.anonymous)
            #expect(try await browser.get("/join").status == .forbidden, "invite only by default")
            // A coach's invite for a new player: a refused form keeps the link usable.
            let invite = try Self.inviteToken(try await client.postForm("/invites", [("role", "coach")]))
            let weak = try await browser.postForm(
                "/join", [("invite", invite), ("displayName", "Cleo"), ("handle", "cleo.new"), ("password", "short")])
            #expect(weak.status == .unprocessableContent)
            #expect(weak.text.contains("at least 10 characters"))
            let joined = try await browser.postForm(
                "/join", [("invite", invite), ("displayName", "Cleo"), ("handle", "cleo.new"), ("password", "cleo password 1")])
            #expect(joined.status == .seeOther)
            let cleo = try await Self.signIn(client, TestUser(handle: "cleo.new", password: "cleo password 1", playerID: UUID(), token: "")).cookie
            #expect(try await browser.get("/courses/new", headers: [.cookie: cleo]).status == .ok, "a coach, as invited")

            let saved = try await client.as(.admin).postForm(
                "/admin/settings",
                [
                    ("clubName", "Pine Loop DGC"), ("tvPageSeconds", "10"), ("publicLeaderboards", "1"), ("openSignUp", "1"),
                ])
            #expect(saved.status == .seeOther)
            #expect(try await browser.get("/join").status == .ok)
            let open = try await browser.postForm("/join", [("displayName", "Dee"), ("handle", "dee"), ("password", "dee password 1")])
            #expect(open.status == .seeOther)
            let dee = try await Self.signIn(client, TestUser(handle: "dee", password: "dee password 1", playerID: UUID(), token: "")).cookie
            #expect(try await browser.get("/courses/new", headers: [.cookie: dee]).status == .forbidden, "open sign-up makes athletes")
        }
    }

    @Test func theSettingsFormExplainsWhatIsWrongAndChangesNothing() async throws {
        try await withApp { client in
            let refused = try await client.as(.admin).postForm(
                "/admin/settings", [("clubName", ""), ("tvPageSeconds", "9000"), ("publicLeaderboards", "1")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Club name is required") && refused.text.contains("from 3 to 600"))
            #expect(try await client.get("/tv").text.contains(#"data-page-seconds="10""#))
        }
    }

    @Test func aRevokedTokenStopsWorking() async throws {
        try await withApp { client in
            #expect(try await client.get("/api/v1/sync").status == .ok)
            let admin = try await client.as(.admin).get("/admin").text
            let page = try #require(admin.components(separatedBy: #"id="tokens""#).last)
            let id = try #require(page.firstMatch(of: /(?s)@cory\.coach<\/td>.*?\/admin\/tokens\/([0-9a-f-]{36})\/revoke/).map { String($0.1) })
            #expect(try await client.as(.admin).postForm("/admin/tokens/\(id)/revoke", []).status == .seeOther)
            #expect(try await client.get("/api/v1/sync").status == .unauthorized)
            #expect(try await client.as(.admin).get("/api/v1/sync").status == .ok, "other tokens are untouched")
        }
    }

    @Test func aPasswordResetSetsTheNewPasswordAndEndsSessions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-reset-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try await buildApplication(testConfiguration(directory))
        let users = try await TestUsers.create(in: directory)
        // Live: kept pages are answered in the connection's pipeline.
        try await app.test(.live) { raw in
            let client = Client(raw: raw, users: users)
            let cookie = try await Self.signIn(client, users.coach).cookie
            // The session is read (and kept in memory) before another process ends it.
            #expect(try await client.as(.anonymous).get("/rounds/new", headers: [.cookie: cookie]).status == .ok)
            // And a kept page, answered the second time in the pipeline (`KeptPageLane`).
            for _ in 0..<2 { #expect(try await client.as(.anonymous).get("/", headers: [.cookie: cookie]).text.contains("@\(users.coach.handle)")) }
            // What `hyzer admin reset-password` does, on the same data folder.
            _ = try await Accounts(stores: try await Stores(directory: directory), cost: 4).resetPassword(
                handle: users.coach.handle, password: "a brand new password")
            let old = try await client.as(.anonymous).get("/rounds/new", headers: [.cookie: cookie])
            #expect(old.status == .seeOther, "the old session ended")
            let home = try await client.as(.anonymous).get("/", headers: [.cookie: cookie])
            #expect(!home.text.contains("@\(users.coach.handle)"), "the kept page is not replayed for an ended session")
            #expect(try await Self.signIn(client, users.coach).response.status == .unauthorized)
            let renewed = TestUser(handle: users.coach.handle, password: "a brand new password", playerID: users.coach.playerID, token: "")
            #expect(try await Self.signIn(client, renewed).response.status == .seeOther)
        }
    }

    @Test func aClaimedProfileCannotBeClaimedAgainWithAnotherInvite() async throws {
        try await withApp { client in
            let coach = client.as(.coach)
            #expect(try await coach.postForm("/players", [("displayName", "Ben Ray"), ("handle", "ben.ray")]).status == .seeOther)
            let page = try await coach.get("/invites").text
            let ben = try #require(page.firstMatch(of: /value="([0-9a-f-]{36})">Ben Ray/).map { String($0.1) })
            let first = try Self.inviteToken(try await coach.postForm("/invites", [("role", "athlete"), ("playerID", ben)]))
            let second = try Self.inviteToken(try await coach.postForm("/invites", [("role", "athlete"), ("playerID", ben)]))
            let browser = client.as(.anonymous)
            #expect(try await browser.get("/join?invite=\(first)").text.contains("Claim your profile"))
            #expect(try await browser.postForm("/join", [("invite", first), ("password", "ben password one")]).status == .seeOther)
            // The other invite died with the claim: nobody can reset Ben's password with it.
            #expect(try await browser.postForm("/join", [("invite", second), ("password", "attacker password")]).status == .forbidden)
            let benUser = TestUser(handle: "ben.ray", password: "ben password one", playerID: UUID(), token: "")
            #expect(try await Self.signIn(client, benUser).response.status == .seeOther)
        }
    }

    @Test func aSessionSurvivesARestartAndSignOutEverywhereEndsIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await buildApplication(testConfiguration(directory))
        let users = try await TestUsers.create(in: directory)
        let cookie = try await first.test(.router) { raw in try await Self.signIn(Client(raw: raw, users: users), users.coach).cookie }

        let second = try await buildApplication(testConfiguration(directory))
        try await second.test(.router) { raw in
            let browser = Client(raw: raw, users: users).as(.anonymous)
            #expect(try await browser.get("/rounds/new", headers: [.cookie: cookie]).status == .ok)
            let other = try await Self.signIn(Client(raw: raw, users: users), users.coach).cookie
            let out = try await browser.postForm("/signout/everywhere", [], headers: [.cookie: cookie])
            #expect(out.status == .seeOther)
            for session in [cookie, other] {
                let after = try await browser.get("/rounds/new", headers: [.cookie: session])
                #expect(after.status == .seeOther && after.headers[.location]?.hasPrefix("/signin") == true)
            }
        }
    }

    /// A cookie that expires "now" is still sent for the rest of that second: the page after
    /// signing out was asked for with the dead session, and the sign-in form it led to failed.
    @Test func signingOutEndsTheSessionCookieAtOnce() async throws {
        try await withApp { client in
            let (cookie, _) = try await Self.signIn(client, client.users.coach)
            for path in ["/signout", "/signout/everywhere"] {
                let (session, _) = try await Self.signIn(client, client.users.coach)
                let out = try await client.as(.anonymous).postForm(path, [], headers: [.cookie: session])
                let ended = out.headers[values: .setCookie].first { $0.hasPrefix("hyzer_session=") }
                #expect(ended?.lowercased().contains("max-age=0") == true, "\(path): \(ended ?? "no session cookie")")
            }
            // A session still alive is not ended by a page that only reads it.
            let page = try await client.as(.anonymous).get("/", headers: [.cookie: cookie])
            #expect(page.headers[values: .setCookie].allSatisfy { !$0.lowercased().contains("max-age=0") })
        }
    }

    @Test func formsWithoutTheRightTokenOrFromAnotherSiteAreRefusedAndWriteNothing() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let player = try #require(try await client.roundDetail(roundID).playerIDs().first)
            let (cookie, _) = try await Self.signIn(client, client.users.coach)
            let browser = client.as(.anonymous)
            let before = try await client.standings(roundID).row(player)?["thru"] as? Int
            let score = [("playerID", player), ("hole", "12"), ("strokes", "3")]
            func post(_ body: String, _ headers: HTTPFields) async throws -> TestResponse {
                var headers = headers
                headers[.contentType] = "application/x-www-form-urlencoded"
                return try await browser.execute(uri: "/rounds/\(roundID)/scores", method: .post, headers: headers, body: ByteBuffer(string: body))
            }
            let fields = score.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
            let session = cookie.split(separator: ";").last.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
            let missing = try await post(fields, [.cookie: cookie])
            let wrong = try await post("csrf=\(String(repeating: "x", count: 43))&\(fields)", [.cookie: cookie])
            let token = try #require(Client.formToken(in: cookie))
            let noCookie = try await post("csrf=\(token)&\(fields)", [.cookie: session])
            let crossSite = try await post("csrf=\(token)&\(fields)", [.cookie: cookie, .origin: "http://evil.example"])
            for response in [missing, wrong, noCookie, crossSite] {
                #expect(response.status == .forbidden)
            }
            #expect(try await client.standings(roundID).row(player)?["thru"] as? Int == before)
            // The same form with the token goes through.
            #expect(try await post("csrf=\(token)&\(fields)", [.cookie: cookie]).status == .seeOther)
            #expect(try await client.standings(roundID).row(player)?["thru"] as? Int == (before ?? 0) + 1)
        }
    }

    @Test func theAPIAcceptsOnlyJSONAndNotFromOtherSites() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let player = try #require(try await client.roundDetail(roundID).playerIDs().first)
            let body = ByteBuffer(string: #"{"playerID":"\#(player)","hole":12,"strokes":3}"#)
            // What a cross-site <form enctype="text/plain"> would send, with the victim's cookie.
            let (cookie, _) = try await Self.signIn(client, client.users.coach)
            let plain = try await client.as(.anonymous).execute(
                uri: "/api/v1/rounds/\(roundID)/scores", method: .post,
                headers: [.contentType: "text/plain", .cookie: cookie], body: body)
            #expect(plain.status == .unsupportedMediaType)
            #expect(plain.headers[.contentType] == "application/problem+json")
            let foreign = try await client.as(.anonymous).execute(
                uri: "/api/v1/rounds/\(roundID)/scores", method: .post,
                headers: [.contentType: "application/json", .cookie: cookie, .origin: "https://evil.example"], body: body)
            #expect(foreign.status == .forbidden)

            let viaCookie = try await client.as(.anonymous).execute(
                uri: "/api/v1/rounds/\(roundID)/scores", method: .post,
                headers: [.contentType: "application/json", .cookie: cookie], body: body)
            #expect(viaCookie.status == .created)
            let event = try viaCookie.json()["event"] as? [String: Any]
            #expect(event?["reportedBy"] as? String == client.users.coach.playerID.uuidString.lowercased())
        }
    }

    @Test func everyResponseCarriesTheSecurityHeadersAndHeadIsAnswered() async throws {
        try await withApp { client in
            for path in ["/", "/tv", "/healthz", "/api/v1/rounds", "/hyzer.css", "/nowhere"] {
                let response = try await client.get(path)
                let policy = response.headers[.contentSecurityPolicy] ?? ""
                #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"), "\(path)")
                #expect(policy.contains("frame-ancestors 'none'"), "\(path)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin", "\(path)")
            }
            for path in ["/", "/healthz", "/tv", "/api/v1/rounds"] {
                let head = try await client.execute(uri: path, method: .head)
                #expect(head.status == .ok, "HEAD \(path)")
                #expect(head.body.readableBytes == 0, "HEAD \(path)")
            }
        }
    }

    @Test func aScriptInADisplayNameIsInertEverywhere() async throws {
        let evil = #"<script>alert("x")</script><img src=x onerror=alert(1)>"#
        try await withLiveApp { port, client, http in
            let created = try await client.postForm("/players", [("displayName", evil), ("handle", "evil")])
            #expect(created.status == .seeOther)
            let page = try await client.get("/rounds/new").text
            let evilID = try #require(page.firstMatch(of: /value="([0-9a-f-]{36})"> &lt;script/)?.1)
            let courseID = try #require(page.firstMatch(of: /option value="([0-9a-f-]{36})"/)?.1)
            let round = try await client.postForm(
                "/rounds", [("courseID", String(courseID)), ("playerIDs[]", String(evilID)), ("startNow", "1"), ("name", evil)])
            let roundPath = try #require(round.headers[.location])
            let roundID = String(roundPath.split(separator: "/").last ?? "")
            let stream = try await SSEStream.open(http, port: port, path: "/rounds/\(roundID)/events")
            let first = try await stream.nextEvent()
            _ = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(evilID)","hole":1,"strokes":3}"#)
            var frame = try await stream.nextEvent()
            while frame.id == first.id { frame = try await stream.nextEvent() }
            let bodies = [
                try await client.get(roundPath).text, try await client.get("\(roundPath)/leaderboard").text, try await client.get("/tv").text,
                try await client.get("/").text, try await client.as(.admin).get("/admin").text, frame.data,
            ]
            for (index, body) in bodies.enumerated() {
                #expect(!body.contains("<script>alert"), "body \(index)")
                #expect(!body.contains("<img src=x"), "body \(index)")
                #expect(body.contains("&lt;script&gt;"), "body \(index) shows the name as text")
            }
        }
    }

    @Test func aSetupLinkWorksOnceAndNotAfterItExpires() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-setup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (web, _, token) = try await assemble(testConfiguration(directory, seedDemo: false), logger: Logger(label: "test"))
        let link = try #require(token, "a first start with no admin makes a setup link")
        let expired = try await web.stores.operational.createLink(
            OneTimeLink(kind: .setup, role: .admin, expiresAt: Date(timeIntervalSinceNow: -1)), grantedBy: nil)
        let app = try await buildApplication(testConfiguration(directory, seedDemo: false))
        let users = TestUsers(
            directory: directory, admin: .init(handle: "", password: "", playerID: UUID(), token: ""),
            coach: .init(handle: "", password: "", playerID: UUID(), token: ""),
            athlete: .init(handle: "", password: "", playerID: UUID(), token: ""))
        try await app.test(.router) { raw in
            let browser = Client(raw: raw, users: users).as(.anonymous)
            #expect(try await browser.get("/setup").status == .forbidden)
            #expect(try await browser.get("/setup?token=\(expired)").status == .forbidden)
            #expect(try await browser.get("/setup?token=\(link)").status == .ok)
            let account = [("token", link), ("displayName", "Ada"), ("handle", "ada"), ("password", "correct horse battery")]
            let short = try await browser.postForm("/setup", [("token", link), ("displayName", "Ada"), ("handle", "ada"), ("password", "short")])
            #expect(short.status == .unprocessableContent, "a refused form does not use the link up")
            let made = try await browser.postForm("/setup", account)
            #expect(made.status == .seeOther && made.headers[.location] == "/admin")
            #expect(made.headers[values: .setCookie].contains { $0.hasPrefix("hyzer_session=") })
            let again = try await browser.postForm("/setup", account.map { $0.0 == "handle" ? ($0.0, "mallory") : $0 })
            #expect(again.status == .forbidden)
            #expect(try await browser.get("/setup?token=\(link)").status == .forbidden)
        }
        let stores = try await Stores(directory: directory)
        #expect(try await stores.domain.users().map(\.player.handle.value) == ["ada"])
    }

    @Test func theLastAdminCanBeNeitherDemotedNorDisabled() async throws {
        try await withApp { client in
            let admin = client.as(.admin)
            let me = client.users.admin.playerID.uuidString.lowercased()
            let demote = try await admin.postForm("/admin/users/\(me)/role", [("role", "coach")])
            #expect(demote.status == .conflict)
            #expect(demote.text.contains("last enabled admin"))
            #expect(try await admin.postForm("/admin/users/\(me)/disable", []).status == .conflict)
            #expect(try await admin.get("/admin").status == .ok, "still an admin")
            // With a second admin, the first may step down; the change is in the audit log.
            let coach = client.users.coach.playerID.uuidString.lowercased()
            #expect(try await admin.postForm("/admin/users/\(coach)/role", [("role", "admin")]).status == .seeOther)
            #expect(try await admin.postForm("/admin/users/\(me)/role", [("role", "coach")]).status == .seeOther)
            #expect(try await admin.get("/admin").status == .forbidden)
            let page = try await client.get("/admin").text
            #expect(page.contains("role → admin") && page.contains("role → coach"))
        }
    }

    @Test func aDisabledAccountLosesItsTokenAndSignIn() async throws {
        try await withApp { client in
            let athlete = client.users.athlete.playerID.uuidString.lowercased()
            let admin = client.as(.admin)
            let before = try await client.as(.athlete).get("/api/v1/sync")
            let disabled = try await admin.postForm("/admin/users/\(athlete)/disable", [])
            let tokenAfter = try await client.as(.athlete).get("/api/v1/sync")
            let signIn = try await Self.signIn(client, client.users.athlete).response
            let enabled = try await admin.postForm("/admin/users/\(athlete)/enable", [])
            let tokenAgain = try await client.as(.athlete).get("/api/v1/sync")
            #expect(before.status == .ok)
            #expect(disabled.status == .seeOther)
            #expect(tokenAfter.status == .unauthorized)
            #expect(signIn.status == .unauthorized)
            #expect(enabled.status == .seeOther)
            #expect(tokenAgain.status == .ok)
        }
    }

    @Test func aRoleChangedOnOneDeviceIsEnforcedOnTheOther() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-roles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let cloud = CloudAddress.sqlite(path: root.appendingPathComponent("cloud.sqlite").path)
        var fast = SyncEngine.Configuration()
        fast.fallbackInterval = .milliseconds(200)
        var configA = testConfiguration(root.appendingPathComponent("a"), cloud: cloud)
        var configB = testConfiguration(root.appendingPathComponent("b"), seedDemo: false, cloud: cloud)
        configA.sync = fast
        configB.sync = fast
        let a = try await buildApplication(configA)
        let b = try await buildApplication(configB)
        let users = try await TestUsers.create(in: root.appendingPathComponent("a"))
        try await a.test(.live) { rawA in
            try await b.test(.live) { rawB in
                try await withTimeout(30) {
                    let onA = Client(raw: rawA, users: users)
                    // Each test connection asks at once: one that sends no request head for the
                    // server's header timeout (10 s) is closed, and sync may take that long on a
                    // loaded machine.
                    #expect(try await onA.get("/healthz").status == .ok)
                    #expect(try await Client(raw: rawB, users: users).as(.anonymous).get("/healthz").status == .ok)
                    // The athlete account reaches B; a token issued there acts as the athlete on B.
                    let accountsB = Accounts(stores: try await Stores(directory: root.appendingPathComponent("b")), cost: 4)
                    var tokenB: String?
                    while tokenB == nil {
                        tokenB = try? await accountsB.issueToken(handle: users.athlete.handle, name: "test")
                        if tokenB == nil { try await Task.sleep(for: .milliseconds(50)) }
                    }
                    let onB = Client(raw: rawB, users: users).as(.anonymous)
                    let asAthlete: HTTPFields = [.authorization: "Bearer \(tokenB ?? "")"]
                    #expect(try await onB.get("/courses/new", headers: asAthlete).status == .forbidden)

                    let athlete = users.athlete.playerID.uuidString.lowercased()
                    #expect(try await onA.as(.admin).postForm("/admin/users/\(athlete)/role", [("role", "coach")]).status == .seeOther)
                    while try await onB.get("/courses/new", headers: asAthlete).status != .ok {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    #expect(try await onA.as(.admin).postForm("/admin/users/\(athlete)/disable", []).status == .seeOther)
                    while try await onB.get("/api/v1/sync", headers: asAthlete).status != .unauthorized {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
            }
        }
    }
}
