import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite struct PageTests {
    @Test func healthAndStaticFiles() async throws {
        try await withApp { client in
            let health = try await client.get("/healthz")
            #expect(health.status == .ok)
            #expect(health.text == "ok\n")
            let css = try await client.get("/hyzer.css")
            #expect(css.status == .ok)
            #expect(css.headers[.contentType]?.hasPrefix("text/css") == true)
        }
    }

    @Test func onlyTheTVMayBeFramedAndOnlyByTheOriginsTheOperatorNames() async throws {
        try await withApp(configure: { $0.tvFrameAncestors = "'self' https://signage.example" }) { client in
            let tv = try await client.as(.anonymous).get("/tv")
            #expect(tv.headers[.contentSecurityPolicy]?.hasSuffix("frame-ancestors 'self' https://signage.example") == true)
            #expect(tv.headers[HTTPField.Name("X-Frame-Options")!] == nil)
            let home = try await client.as(.anonymous).get("/")
            #expect(home.headers[.contentSecurityPolicy]?.hasSuffix("frame-ancestors 'none'") == true)
            #expect(home.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
        }
    }

    @Test func homeListsTheDemoRound() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let home = try await client.get("/")
            #expect(home.status == .ok)
            #expect(home.headers[.contentType] == "text/html; charset=utf-8")
            #expect(home.text.contains("Tuesday League"))
            #expect(home.text.contains("/rounds/\(roundID)"))
        }
    }

    @Test func roundPageShowsScorecardEntryFormAndLeaderboard() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let page = try await client.get("/rounds/\(roundID)")
            #expect(page.status == .ok)
            #expect(page.text.contains("class=\"scorecard\""))
            #expect(page.text.contains("action=\"/rounds/\(roundID)/scores\""))
            #expect(page.text.contains("id=\"leaderboard-\(roundID)\""))
            #expect(page.text.contains("/scores/"), "recorded scores link to their correction")
        }
    }

    @Test func leaderboardPageShowsPositionsToParAndThru() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let standings = try await client.standings(roundID)
            let first = try #require((standings["standings"] as? [[String: Any]])?.first)
            let page = try await client.get("/rounds/\(roundID)/leaderboard")
            #expect(page.status == .ok)
            let name = try #require(first["displayName"] as? String)
            #expect(page.text.contains(name))
            #expect(page.text.contains("<td class=\"pos\">\(first["position"] as? String ?? "?")</td>"))
            #expect(page.text.contains("<th class=\"thru\">Thru</th>"))
        }
    }

    @Test(arguments: ["/rounds/\(UUID().uuidString)", "/rounds/not-a-uuid", "/rounds/\(UUID().uuidString)/leaderboard", "/no/such/page"])
    func unknownIdsAndPathsAreA404Page(path: String) async throws {
        try await withApp(seedDemo: false) { client in
            let response = try await client.get(path)
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(response.text.contains("Not found"))
        }
    }

    @Test func unknownScoreToCorrectIsA404() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let response = try await client.get("/rounds/\(roundID)/scores/\(UUID().uuidString)/correct")
            #expect(response.status == .notFound)
        }
    }
}
