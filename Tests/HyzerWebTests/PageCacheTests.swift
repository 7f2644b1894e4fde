import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import HyzerStore
@testable import HyzerWeb

@Suite struct PageCacheTests {
    static let cache = HTTPField.Name("X-Cache")!

    @Test func aPageIsRenderedOncePerChangeAndServedFreshRightAfterAWrite() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let anonymous = client.as(.anonymous)
            for path in ["/rounds/\(roundID)/leaderboard", "/rounds/\(roundID)", "/tv", "/"] {
                let first = try await anonymous.get(path)
                let second = try await anonymous.get(path)
                #expect(first.status == .ok && second.status == .ok)
                #expect(first.headers[Self.cache] == "miss", "\(path): rendered for the first viewer")
                #expect(second.headers[Self.cache] == "hit", "\(path): kept for the next")
                #expect(second.text == first.text)
                #expect(second.headers[.eTag] == first.headers[.eTag])
            }
            // Parameters the page does not read are not part of the key: made-up ones cannot
            // fill the cache; one it reads is.
            let junk = try await anonymous.get("/rounds/\(roundID)/leaderboard?junk=\(UUID())")
            #expect(junk.headers[Self.cache] == "hit")
            let division = try await anonymous.get("/rounds/\(roundID)/leaderboard?division=MPO")
            #expect(division.headers[Self.cache] == "hit", "the demo round has no divisions: the whole field")
            let notADivision = try await anonymous.get("/rounds/\(roundID)/leaderboard?division=%3Cscript%3E")
            #expect(notADivision.headers[Self.cache] == "hit", "what is not a division's name shows every division")
            let noSuchDivision = try await anonymous.get("/rounds/\(roundID)/leaderboard?division=MA9")
            #expect(noSuchDivision.headers[Self.cache] == "hit", "nor does a division the round does not have")
            let pinnedNowhere = try await anonymous.get("/tv?round=\(UUID())")
            #expect(pinnedNowhere.headers[Self.cache] == "hit", "a round that is not there pins nothing")
            let tv = try await anonymous.get("/tv")
            let smuggled = try await anonymous.get("/tv?round=\(roundID)%26page%3D5")
            #expect(smuggled.headers[Self.cache] == "hit" && smuggled.text == tv.text, "a parameter smuggled into another is no key")
            let before = try await anonymous.get("/rounds/\(roundID)/leaderboard")
            let version = try #require(try await client.standings(roundID)["version"] as? Int)
            #expect(before.headers[.eTag]?.hasPrefix("\"r\(version)-") == true, "the ETag carries the round's version")

            // A score, then at once the page: rendered anew, with the score (read-your-writes).
            let players = try await client.roundDetail(roundID)["players"] as? [[String: Any]] ?? []
            let player = try #require(players.last?["id"] as? String)
            let posted = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(player)","hole":18,"strokes":7}"#)
            #expect(posted.status == .created)
            let after = try await anonymous.get("/rounds/\(roundID)/leaderboard")
            #expect(after.headers[Self.cache] == "miss")
            #expect(after.headers[.eTag]?.hasPrefix("\"r\(version + 1)-") == true)
            #expect(after.text != before.text)
            let home = try await anonymous.get("/")
            #expect(home.headers[Self.cache] == "miss", "any change of the data is a change for every page")
        }
    }

    @Test func ifNoneMatchAnswers304UntilThePageChanges() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let anonymous = client.as(.anonymous)
            let page = try await anonymous.get("/rounds/\(roundID)/leaderboard")
            let etag = try #require(page.headers[.eTag])
            // A page without a form hands out no form token: a shared cache may keep it a second.
            #expect(page.headers[.cacheControl] == "public, max-age=0, s-maxage=1")
            #expect(page.headers[values: .setCookie].isEmpty)
            let returning = try await anonymous.get("/rounds/\(roundID)/leaderboard", headers: [.cookie: "\(CSRF.cookieName)=\(Client.formToken)"])
            #expect(returning.headers[.cacheControl] == "public, max-age=0, s-maxage=1")
            // A page with a form (signing in) does hand one out, and is this browser's alone.
            let signIn = try await anonymous.get("/signin")
            #expect(signIn.headers[values: .setCookie].contains { $0.hasPrefix(CSRF.cookieName + "=") })
            #expect(signIn.headers[.cacheControl]?.contains("no-store") == true)
            // A signed-in view is never for a shared cache.
            let (cookie, _) = try await AccountTests.signIn(client, client.users.coach)
            #expect(
                try await anonymous.get("/rounds/\(roundID)/leaderboard", headers: [.cookie: cookie]).headers[.cacheControl] == "private, no-store")
            #expect(returning.headers[.eTag] == etag)
            let unchanged = try await anonymous.get("/rounds/\(roundID)/leaderboard", headers: [.ifNoneMatch: etag])
            #expect(unchanged.status == .notModified)
            #expect(unchanged.body.readableBytes == 0)
            #expect(unchanged.headers[.eTag] == etag)
            let listed = try await anonymous.get("/rounds/\(roundID)/leaderboard", headers: [.ifNoneMatch: "\"other\", W/\(etag)"])
            #expect(listed.status == .notModified, "a list, and a weak comparison")
            let other = try await anonymous.get("/rounds/\(roundID)/leaderboard", headers: [.ifNoneMatch: "\"r1-0\""])
            #expect(other.status == .ok && other.text == page.text)

            let players = try await client.roundDetail(roundID)["players"] as? [[String: Any]] ?? []
            let player = try #require(players.last?["id"] as? String)
            _ = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(player)","hole":18,"strokes":7}"#)
            let changed = try await anonymous.get("/rounds/\(roundID)/leaderboard", headers: [.ifNoneMatch: etag])
            #expect(changed.status == .ok, "a new score: the old ETag no longer matches")
            #expect(changed.headers[.eTag] != etag)
        }
    }

    @Test func gzipIsServedWhenAcceptedAndInflatesToTheSamePage() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let anonymous = client.as(.anonymous)
            let plain = try await anonymous.get("/rounds/\(roundID)")
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.vary]?.contains("Accept-Encoding") == true)
            for accept in ["gzip", "br, gzip;q=0.8", "*"] {
                let zipped = try await anonymous.get("/rounds/\(roundID)", headers: [.acceptEncoding: accept])
                #expect(zipped.headers[.contentEncoding] == "gzip", "Accept-Encoding: \(accept)")
                var body = zipped.body
                #expect(body.readableBytes < plain.body.readableBytes / 3)
                let inflated = try body.decompress(with: .gzip())
                #expect(String(buffer: inflated) == plain.text)
                #expect(zipped.headers[.eTag] != plain.headers[.eTag], "each encoding has its own tag")
                let revalidated = try await anonymous.get(
                    "/rounds/\(roundID)", headers: [.acceptEncoding: accept, .ifNoneMatch: zipped.headers[.eTag] ?? ""])
                #expect(revalidated.status == .notModified)
            }
            let refused = try await anonymous.get("/rounds/\(roundID)", headers: [.acceptEncoding: "gzip;q=0, br"])
            #expect(refused.headers[.contentEncoding] == nil)
        }
    }

    /// What is cached for one audience never reaches another: a coach's round page carries the
    /// coach's menu, entry form and form token; anonymous viewers and an athlete who come
    /// after get their own render.
    @Test func aSignedInViewIsNeverServedToAnyoneElse() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let coach = try await AccountTests.signIn(client, client.users.coach)
            let session = String(try #require(coach.cookie.components(separatedBy: "hyzer_session=").last))
            let coachToken = testFormKey.issue(binding: session, nonce: "c0ach" + String(repeating: "c", count: 17))
            let coachCookie = "\(CSRF.cookieName)=\(coachToken); hyzer_session=\(session)"
            let coachPage = try await client.as(.anonymous).get("/rounds/\(roundID)", headers: [.cookie: coachCookie])
            #expect(coachPage.text.contains("Sign out @\(client.users.coach.handle)"))
            #expect(coachPage.text.contains(coachToken), "the coach's forms carry the coach's token")
            #expect(coachPage.headers[.cacheControl] == "private, no-store", "a signed-in view does not outlive a sign-out in the browser")
            let again = try await client.as(.anonymous).get("/rounds/\(roundID)", headers: [.cookie: coachCookie])
            #expect(again.headers[Self.cache] == "hit")

            let anonymous = try await client.as(.anonymous).get("/rounds/\(roundID)")
            #expect(anonymous.headers[Self.cache] == "miss")
            #expect(!anonymous.text.contains(coachToken))
            #expect(!anonymous.text.contains("Sign out"))
            #expect(!anonymous.text.contains("action=\"/rounds/\(roundID)/scores\""), "no entry form for a viewer")

            let athlete = try await AccountTests.signIn(client, client.users.athlete)
            let athletePage = try await client.as(.anonymous).get("/rounds/\(roundID)", headers: [.cookie: athlete.cookie])
            #expect(athletePage.headers[Self.cache] == "miss")
            #expect(!athletePage.text.contains(coachToken))
            #expect(athletePage.text.contains("Sign out @\(client.users.athlete.handle)"))
            #expect(!athletePage.text.contains("Sign out @\(client.users.coach.handle)"))

            // The same coach in another browser (another form token) gets a page with that token.
            let otherBrowser = try await client.as(.anonymous).get("/rounds/\(roundID)", headers: [.cookie: coach.cookie])
            #expect(otherBrowser.headers[Self.cache] == "miss")
            #expect(!otherBrowser.text.contains(coachToken))
            let firstToken = try #require(Client.formToken(in: coach.cookie))
            #expect(otherBrowser.text.contains(firstToken))
        }
    }
}
