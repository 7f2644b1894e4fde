import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerCore
import Testing

@testable import HyzerWeb

/// A viewer's GET of a kept page is answered in the connection's pipeline (`KeptPageLane`,
/// `KeptPageHandler`: a real server, so over a socket): the same answer as the whole way,
/// only while the whole way would give it, and never to anyone the chain would treat
/// differently.
@Suite struct KeptPageLaneTests {
    /// Which way the request went: how many answers the lane has given so far.
    static func answered(_ client: Client) async throws -> Int {
        // This app's own count (read when scraped), not the process's.
        Int(try await MetricsTests.value("hyzer_http_kept_page_lane_answers_total", client))
    }

    @Test func theLaneAnswersExactlyAsTheWholeWayDoes() async throws {
        try await withApp(live: true) { client in
            let roundID = try await client.demoRoundID()
            let anonymous = client.as(.anonymous)
            for path in ["/rounds/\(roundID)/leaderboard", "/rounds/\(roundID)", "/tv", "/", "/rounds/\(roundID)/leaderboard?division=MPO"] {
                for headers: HTTPFields in [
                    [:], [.acceptEncoding: "gzip, deflate, br"], [.cookie: "hyzer_csrf=\(String(repeating: "b", count: 43))"],
                ] {
                    _ = try await anonymous.get(path, headers: headers)  // the whole way: rendered or kept, then noted
                    let before = try await Self.answered(client)
                    let lane = try await anonymous.get(path, headers: headers)
                    #expect(try await Self.answered(client) == before + 1, "\(path) \(headers): answered by the lane")
                    // A cookie the lane does not know sends the same request the whole way.
                    var other = headers
                    other[.cookie] = [headers[.cookie], "theme=dark"].compactMap { $0 }.joined(separator: "; ")
                    let whole = try await anonymous.get(path, headers: other)
                    #expect(try await Self.answered(client) == before + 1, "\(path): an unknown cookie goes the whole way")
                    #expect(lane.status == .ok && whole.status == .ok)
                    #expect(lane.body == whole.body, "\(path) \(headers): the same bytes")
                    #expect(Self.fields(lane) == Self.fields(whole), "\(path) \(headers): the same headers")
                    #expect(lane.headers[.contentSecurityPolicy] != nil && lane.headers[ViewerTag.header] == ViewerTag.anonymous)
                    // A browser asking whether its copy is current gets the chain's 304.
                    let etag = try #require(lane.headers[.eTag])
                    var conditional = headers
                    conditional[.ifNoneMatch] = etag
                    let notModified = try await anonymous.get(path, headers: conditional)
                    #expect(notModified.status == .notModified && notModified.body.readableBytes == 0)
                    #expect(try await Self.answered(client) == before + 2)
                    var wholeConditional = conditional
                    wholeConditional[.cookie] = other[.cookie]
                    #expect(Self.fields(notModified) == Self.fields(try await anonymous.get(path, headers: wholeConditional)))
                }
            }
        }
    }

    @Test func onlyAnAnonymousViewerOfAPublicPageTakesTheLane() async throws {
        try await withApp(live: true) { client in
            let roundID = try await client.demoRoundID()
            let path = "/rounds/\(roundID)/leaderboard"
            let anonymous = client.as(.anonymous)
            _ = try await anonymous.get(path)
            _ = try await anonymous.get(path)
            let start = try await Self.answered(client)
            #expect(start > 0)

            // Signed in: their own page, the whole way the first time (and never the one the
            // lane keeps for spectators).
            let (cookie, _) = try await AccountTests.signIn(client, client.users.admin)
            let signedIn = try await anonymous.get(path, headers: [.cookie: cookie])
            #expect(signedIn.text.contains("@ada.admin") && signedIn.headers[.cacheControl] == "private, no-store")
            let token = try await client.as(.admin).get(path)
            #expect(token.headers[ViewerTag.header] != ViewerTag.anonymous)
            for headers: HTTPFields in [
                [.range: "bytes=0-10"], [ReadYourWritesMiddleware.header: "1"], [.authorization: "Bearer nonsense"],
                [.cookie: "hyzer_session=made-up"],
            ] {
                let answer = try await anonymous.get(path, headers: headers)
                #expect(!answer.text.contains("@ada.admin"))
            }
            // A second session cookie: what the chain makes of it, never the lane.
            _ = try await anonymous.get(path, headers: [.cookie: cookie + "; hyzer_session=second"])
            _ = try await anonymous.execute(uri: path, method: .head)
            #expect(try await Self.answered(client) == start, "none of these took the lane")

            // Leaderboards made private: the next spectator is sent to sign in, though the
            // lane had the page a moment ago.
            try await client.as(.admin).postForm("/admin/settings", [("clubName", "Club"), ("tvPageSeconds", "10")]).expectRedirect()
            let refused = try await anonymous.get(path)
            #expect(refused.status == .seeOther && refused.headers[.location]?.hasPrefix("/signin") == true)
            #expect(try await anonymous.get(path).status == .seeOther)
            #expect(try await Self.answered(client) == start)
            // Public again: kept anew, then the lane.
            try await client.as(.admin).postForm("/admin/settings", [("clubName", "Club"), ("tvPageSeconds", "10"), ("publicLeaderboards", "1")])
                .expectRedirect()
            #expect(try await anonymous.get(path).status == .ok)
            let renamed = try await anonymous.get(path)
            #expect(renamed.text.contains("Club"), "the new club name heads it")
            #expect(try await Self.answered(client) == start + 1)
        }
    }

    @Test func aScoreIsOnTheNextPageTheLaneServes() async throws {
        try await withApp(live: true) { client in
            let roundID = try await client.demoRoundID()
            let path = "/rounds/\(roundID)/leaderboard"
            let anonymous = client.as(.anonymous)
            _ = try await anonymous.get(path)
            let kept = try await anonymous.get(path)
            let players = try await client.roundDetail(roundID)["players"] as? [[String: Any]] ?? []
            let player = try #require(players.last?["id"] as? String)
            #expect(
                try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(player)","hole":18,"strokes":7}"#).status == .created)
            let fresh = try await anonymous.get(path)
            #expect(fresh.headers[PageCache.cacheHeader] == "miss" && fresh.text != kept.text, "rendered anew the whole way")
            let before = try await Self.answered(client)
            let next = try await anonymous.get(path)
            #expect(try await Self.answered(client) == before + 1 && next.text == fresh.text)
        }
    }

    @Test func theLaneCountsItsRequestsInTheRouteMetrics() async throws {
        try await withApp(live: true) { client in
            let roundID = try await client.demoRoundID()
            let series = #"hb_requests{http_route="/rounds/{id}/leaderboard",http_request_method="GET",http_response_status_code="200"}"#
            _ = try await client.as(.anonymous).get("/rounds/\(roundID)/leaderboard")
            let before = try await MetricsTests.value(series, client)
            let lane = try await Self.answered(client)
            for _ in 0..<5 { _ = try await client.as(.anonymous).get("/rounds/\(roundID)/leaderboard") }
            #expect(try await Self.answered(client) == lane + 5)
            #expect(try await MetricsTests.value(series, client) - before >= 5)
        }
    }

    @Test func aSignedInViewerTakesTheLaneOnlyWhileTheirSessionStands() async throws {
        try await withApp(live: true) { client in
            let roundID = try await client.demoRoundID()
            let path = "/rounds/\(roundID)/leaderboard"
            let anonymous = client.as(.anonymous)
            let (cookie, _) = try await AccountTests.signIn(client, client.users.coach)
            let (other, _) = try await AccountTests.signIn(client, client.users.athlete)
            let first = try await anonymous.get(path, headers: [.cookie: cookie])
            let before = try await Self.answered(client)
            let kept = try await anonymous.get(path, headers: [.cookie: cookie])
            #expect(try await Self.answered(client) == before + 1, "the same cookies again: the lane")
            let whole = try await anonymous.get(path, headers: [.cookie: cookie + "; theme=dark"])
            #expect(try await Self.answered(client) == before + 1, "an unknown cookie goes the whole way")
            #expect(kept.body == first.body && kept.body == whole.body)
            // The session's end is worked out from the time left each time it is asked: a
            // second apart at most.
            #expect(Self.fields(kept, but: ViewerTag.untilHeader) == Self.fields(whole, but: ViewerTag.untilHeader))
            let until = [kept, whole].compactMap { $0.headers[ViewerTag.untilHeader].flatMap(Int.init) }
            #expect(until.count == 2 && abs(until[0] - until[1]) <= 1)
            #expect(kept.text.contains("@\(client.users.coach.handle)") && kept.headers[.cacheControl] == "private, no-store")
            #expect(kept.headers[ViewerTag.untilHeader] != nil)
            // Another viewer's cookies are another answer, decided the whole way.
            let theirs = try await anonymous.get(path, headers: [.cookie: other])
            #expect(theirs.text.contains("@\(client.users.athlete.handle)") && !theirs.text.contains("@\(client.users.coach.handle)"))
            #expect(try await Self.answered(client) == before + 1)
            #expect(try await anonymous.get(path, headers: [.cookie: cookie]).body == kept.body)
            #expect(try await Self.answered(client) == before + 2, "theirs did not end the coach's")

            // Signed out everywhere (from another device): the same cookies are nobody now.
            let (elsewhere, _) = try await AccountTests.signIn(client, client.users.coach)
            let out = try await anonymous.postForm("/signout/everywhere", [], headers: [.cookie: elsewhere])
            #expect(out.status == .seeOther, "\(out.status)")
            let after = try await anonymous.get(path, headers: [.cookie: cookie])
            #expect(!after.text.contains("@\(client.users.coach.handle)"), "an ended session is not replayed")
            #expect(after.headers[ViewerTag.header] == ViewerTag.anonymous)
            #expect(try await Self.answered(client) == before + 2)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInTheirOrder() async throws {
        try await withLiveApp { port, client, _ in
            let roundID = try await client.demoRoundID()
            let page = "/rounds/\(roundID)/leaderboard"
            _ = try await client.as(.anonymous).get(page)
            let before = try await Self.answered(client)
            // The first goes to the request task; the kept page behind it waits for its answer.
            let get = { (path: String) in "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }
            let socket = try RawSocket(port: port, sending: get("/api/v1/rounds/\(roundID)") + get(page))
            defer { socket.close() }
            let answers = try await socket.read(until: "</html>", timeout: 10)
            let json = try #require(answers.range(of: "application/json"), "\(answers)")
            let html = try #require(answers.range(of: "text/html"), "\(answers)")
            #expect(json.lowerBound < html.lowerBound, "the API's answer comes first")
            #expect(try await Self.answered(client) == before)
            // Asked again once nothing is ahead of it on the connection: the lane.
            try socket.send(get(page))
            #expect(try await socket.read(until: "</html>", timeout: 10).hasPrefix("HTTP/1.1 200"))
            #expect(try await Self.answered(client) == before + 1)

            // A request that asks to close the connection goes the whole way, which closes it.
            let closing = try RawSocket(port: port, sending: "GET \(page) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            defer { closing.close() }
            #expect(try await closing.readToEnd(timeout: 10), "closed after the answer")
            #expect(try await Self.answered(client) == before + 1)
        }
    }

    @Test func aCookieHeaderHummingbirdReadsOtherwiseIsNeverReplayedToSpectators() async throws {
        try await withApp(live: true) { client in
            let roundID = try await client.demoRoundID()
            let path = "/rounds/\(roundID)/leaderboard"
            let anonymous = client.as(.anonymous)
            let (cookie, _) = try await AccountTests.signIn(client, client.users.coach)
            let session = try #require(cookie.split(separator: " ").last)
            // U+037E (a Greek question mark) is `;` to Hummingbird's cookie parser, which signs
            // the request in; read as bytes it is one odd cookie value.
            let odd = "\(CSRF.cookieName)=\(String(repeating: "b", count: 43))\u{037E}\(session)"
            let coach = "@\(client.users.coach.handle)"
            for _ in 0..<3 {
                let page = try await anonymous.get(path, headers: [.cookie: odd])
                if page.text.contains(coach) {
                    #expect(page.headers[ViewerTag.header] != ViewerTag.anonymous, "a signed-in page is tagged for its viewer")
                    #expect(page.headers[.cacheControl] == "private, no-store")
                }
                let spectator = try await anonymous.get(path)
                #expect(!spectator.text.contains(coach) && spectator.headers[ViewerTag.header] == ViewerTag.anonymous)
            }
        }
    }

    @Test func headersAreRecordedOnlyWithTheRenderTheirOwnRequestKept() async throws {
        // Two requests for the same address race: the anonymous one's headers must never be
        // recorded with the render a signed-in one kept meanwhile.
        let lane = KeptPageLane(signedIn: true)
        let signedIn = PageCache.Key(
            page: .home(page: 1),
            audience: .init(identity: Identity(playerID: UUID(), handle: "cory", displayName: "Cory", role: .coach), formToken: "t"))
        let note = KeptPageLane.Note()
        KeptPageLane.$current.withValue(note) { lane.note(key: signedIn, route: "/") }
        let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/")
        let plain = try #require(lane.plain(request))
        var response = Response(status: .ok, headers: [PageCache.cacheHeader: "miss", ViewerTag.header: ViewerTag.anonymous])
        lane.noteHeaders(of: response, to: request, plain, note: note, stamp: nil)
        #expect(!lane.holds(request, plain), "an anonymous answer is not recorded with a signed-in render")
        let anonymous = KeptPageLane.Note()
        KeptPageLane.$current.withValue(anonymous) {
            lane.note(key: PageCache.Key(page: .home(page: 1), audience: .init(identity: nil, formToken: "")), route: "/")
        }
        lane.noteHeaders(of: response, to: request, plain, note: anonymous, stamp: nil)
        #expect(lane.holds(request, plain))
        response.headers[ViewerTag.header] = "someone"
        lane.noteHeaders(of: response, to: request, plain, note: note, stamp: nil)
        #expect(lane.holds(request, plain), "nor a signed-in answer with an anonymous request")
    }

    /// Every header but the date (and `left`), as a sorted list.
    static func fields(_ response: TestResponse, but left: HTTPField.Name = .date) -> [String] {
        response.headers.filter { $0.name != .date && $0.name != left }.map { "\($0.name.canonicalName): \($0.value)" }.sorted()
    }
}
