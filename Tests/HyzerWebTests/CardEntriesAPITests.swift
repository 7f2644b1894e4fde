import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import HyzerWeb

/// The phone's outbox as the server sees it: the card a phone keeps, batches sent again,
/// entries sent with a session cookie hours after the page's form token was made, and the
/// refusals that keep forgery and impersonation out.
@Suite struct CardEntriesAPITests {
    /// A round under way of the athlete and one other player (`other`, else a new player
    /// without an account) on one card: by default 3 holes, the card starting on hole 2.
    static func card(_ client: Client, pars: [Int] = [3, 4, 3], startingHole: Int = 2, other: String? = nil) async throws -> (
        round: String, card: String, other: String
    ) {
        let object = LeagueAPITests.object
        let holes = pars.enumerated().map { #"{"number":\#($0.offset + 1),"par":\#($0.element)}"# }.joined(separator: ",")
        let course = try object(await client.postJSON("/api/v1/courses", #"{"name":"Short","holes":[\#(holes)]}"#), .created)
        let mate: String
        if let other {
            mate = other
        } else {
            mate = try #require(
                try object(await client.postJSON("/api/v1/players", #"{"displayName":"Olga","handle":"olga"}"#), .created)["id"] as? String)
        }
        let athlete = client.users.athlete.playerID.uuidString.lowercased()
        let round = try #require(
            try object(
                await client.postJSON(
                    "/api/v1/rounds",
                    #"{"courseID":"\#(course["id"] ?? "")","name":"Night","start":true,"players":[{"playerID":"\#(athlete)"},{"playerID":"\#(mate)"}]}"#
                ), .created)["id"] as? String)
        let cards = try object(
            await client.postJSON(
                "/api/v1/rounds/\(round)/cards",
                #"{"cards":[{"name":"Card 1","startingHole":\#(startingHole),"playerIDs":["\#(athlete)","\#(mate)"]}]}"#), .ok)
        let card = try #require((cards["cards"] as? [[String: Any]])?.first?["id"] as? String)
        return (round, card, mate)
    }

    static func batch(author: UUID?, _ entries: [(id: UUID, player: String, hole: Int, strokes: Int)]) -> String {
        let scores = entries.map { #"{"id":"\#($0.id.uuidString)","playerID":"\#($0.player)","hole":\#($0.hole),"strokes":\#($0.strokes)}"# }
        return #"{\#(author.map { #""author":"\#($0.uuidString)","# } ?? "")"scores":[\#(scores.joined(separator: ","))]}"#
    }

    @Test func aBatchSentTwiceIsRecordedOnceAndAnswersTheCard() async throws {
        try await withApp { client in
            let (round, card, other) = try await Self.card(client)
            let athlete = client.as(.athlete)
            let me = client.users.athlete.playerID
            let entries = [(UUID(), me.uuidString.lowercased(), 2, 5), (UUID(), other, 2, 3), (UUID(), me.uuidString.lowercased(), 3, 2)]
            let body = Self.batch(author: me, entries)
            let first = try LeagueAPITests.object(await athlete.postJSON("/api/v1/rounds/\(round)/cards/\(card)/scores", body), .ok)
            #expect((first["results"] as? [[String: Any]])?.map { $0["outcome"] as? String } == ["recorded", "recorded", "recorded"])
            let again = try LeagueAPITests.object(await athlete.postJSON("/api/v1/rounds/\(round)/cards/\(card)/scores", body), .ok)
            #expect((again["results"] as? [[String: Any]])?.map { $0["outcome"] as? String } == ["duplicate", "duplicate", "duplicate"])
            let events = try await client.get("/api/v1/rounds/\(round)/scores").json()["events"] as? [[String: Any]]
            #expect(events?.count == 3)
            // The answer is the card as the phone keeps it: holes in the card's order, the
            // athlete's own entries, who asked.
            let state = try #require(again["card"] as? [String: Any])
            #expect((state["holes"] as? [[String: Any]])?.map { $0["number"] as? Int } == [2, 3, 1])
            #expect((state["viewer"] as? [String: Any])?["playerID"] as? String == me.uuidString.lowercased())
            let scores = try #require(state["scores"] as? [[String: Any]])
            #expect(scores.count == 3)
            #expect(scores.first { $0["hole"] as? Int == 3 }?["mine"] as? [String: Int] == ["strokes": 2, "penalties": 0])
            // GET answers the same card.
            let fetched = try LeagueAPITests.object(await athlete.get("/api/v1/rounds/\(round)/cards/\(card)"), .ok)
            #expect((fetched["scores"] as? [[String: Any]])?.count == 3)
        }
    }

    @Test func aSessionSendsWithoutAFormTokenButNeverFromAnotherSiteOrAsSomeoneElse() async throws {
        try await withApp { client in
            let (round, card, _) = try await Self.card(client)
            let me = client.users.athlete.playerID
            let (cookie, _) = try await AccountTests.signIn(client, client.users.athlete)
            let anonymous = client.as(.anonymous)
            let path = "/api/v1/rounds/\(round)/cards/\(card)/scores"
            let body = Self.batch(author: me, [(UUID(), me.uuidString.lowercased(), 2, 4)])
            // The session cookie alone (the page's form token long gone) sends the entries.
            let sent = try await anonymous.postJSON(path, body, headers: [.cookie: cookie])
            #expect(sent.status == .ok, "\(sent.text)")
            // Another site's page cannot: its origin is refused, and a form post is the wrong type.
            let forged = try await anonymous.postJSON(
                path, Self.batch(author: me, [(UUID(), me.uuidString.lowercased(), 3, 4)]),
                headers: [.cookie: cookie, .origin: "https://evil.example"])
            #expect(forged.status == .forbidden)
            let form = try await anonymous.execute(
                uri: path, method: .post, headers: [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"],
                body: .init(string: "scores=1"))
            #expect(form.status == .unsupportedMediaType)
            // Entries typed by the athlete, sent while the coach is signed in on that phone.
            let coachCookie = try await AccountTests.signIn(client, client.users.coach).cookie
            let impostor = try await anonymous.postJSON(
                path, Self.batch(author: me, [(UUID(), me.uuidString.lowercased(), 1, 2)]), headers: [.cookie: coachCookie])
            #expect(impostor.status == .conflict)
            #expect(try impostor.json()["type"] as? String == "/problems/not-the-author")
            // Signed out: 401, so the phone keeps them and asks to sign in.
            let nobody = try await anonymous.postJSON(path, Self.batch(author: me, [(UUID(), me.uuidString.lowercased(), 1, 2)]))
            #expect(nobody.status == .unauthorized)
            let events = try await client.get("/api/v1/rounds/\(round)/scores").json()["events"] as? [[String: Any]]
            #expect(events?.count == 1)
        }
    }

    @Test func aBatchThatCannotBeReadRecordsNothing() async throws {
        try await withApp { client in
            let (round, card, _) = try await Self.card(client)
            let me = client.users.athlete.playerID.uuidString.lowercased()
            let athlete = client.as(.athlete)
            let path = "/api/v1/rounds/\(round)/cards/\(card)/scores"
            let noID = #"{"scores":[{"playerID":"\#(me)","hole":2,"strokes":4},{"id":"not an id","playerID":"\#(me)","hole":3,"strokes":4}]}"#
            #expect(try await athlete.postJSON(path, noID).status == .unprocessableContent)
            let empty = #"{"scores":[]}"#
            #expect(try await athlete.postJSON(path, empty).status == .unprocessableContent)
            let events = try await client.get("/api/v1/rounds/\(round)/scores").json()["events"] as? [[String: Any]]
            #expect(events?.isEmpty == true)
        }
    }

    @Test func theCardPageCarriesTheCardAndEveryPageIsAnInstallableApp() async throws {
        try await withApp { client in
            let (round, card, _) = try await Self.card(client)
            let page = try await client.as(.athlete).get("/rounds/\(round)/cards/\(card)")
            #expect(page.status == .ok)
            #expect(page.text.contains(#"data-state="{&quot;at&quot;:"#))
            #expect(page.text.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#))
            #expect(page.text.contains(#"<script src="/outbox.js" defer></script>"#))
            #expect(page.text.contains(#"<meta name="hyzer-viewer" content="\#(client.users.athlete.playerID.uuidString.lowercased())""#))
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("worker-src 'self'") && policy.contains("manifest-src 'self'") && policy.contains("script-src 'self';"))
            let manifest = try await client.as(.anonymous).get("/manifest.webmanifest")
            #expect(manifest.headers[.contentType] == "application/manifest+json")
            let fields = try manifest.json()
            #expect(fields["display"] as? String == "standalone" && fields["start_url"] as? String == "/")
            #expect((fields["icons"] as? [[String: Any]])?.contains { $0["sizes"] as? String == "512x512" } == true)
            let worker = try await client.as(.anonymous).get("/sw.js")
            #expect(worker.status == .ok && worker.headers[.contentType]?.contains("javascript") == true)
        }
    }
}
