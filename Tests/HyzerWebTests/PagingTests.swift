import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HyzerWeb

/// Lists that grow all season page through every record, and a long round's score history is
/// encoded once per change, not once per call.
@Suite struct PagingTests {
    static let cache = HTTPField.Name("X-Cache")!

    /// The demo round's course and players, and `count` more rounds on it.
    func makeRounds(_ count: Int, _ client: Client) async throws -> Set<String> {
        let demo = try await client.roundDetail(try await client.demoRoundID())
        let courseID = try await client.get("/api/v1/courses").json()["courses"].flatMap { $0 as? [[String: Any]] }?.first?["id"] as? String
        let player = try #require((demo["players"] as? [[String: Any]])?.first?["id"] as? String)
        var ids: Set<String> = []
        for index in 1...count {
            let made = try await client.postJSON(
                "/api/v1/rounds", #"{"courseID":"\#(try #require(courseID))","name":"Week \#(index)","players":[{"playerID":"\#(player)"}]}"#)
            #expect(made.status == .created, "\(made.text)")
            ids.insert(try #require(try made.json()["id"] as? String))
        }
        return ids
    }

    @Test func theRoundsListPagesThroughEveryRound() async throws {
        try await withApp { client in
            let made = try await makeRounds(120, client)
            let courseID = try await client.get("/api/v1/courses").json()["courses"].flatMap { $0 as? [[String: Any]] }?.first?["id"] as? String
            var seen: [String] = []
            var page: Int? = 1
            var pages = 0
            while let number = page {
                let answer = try await client.get("/api/v1/rounds?page=\(number)")
                #expect(answer.status == .ok)
                let body = try answer.json()
                let rounds = try #require(body["rounds"] as? [[String: Any]])
                #expect(rounds.count <= 50)
                #expect(body["page"] as? Int == number)
                seen += rounds.compactMap { $0["id"] as? String }
                page = body["nextPage"] as? Int
                #expect(page == nil || body["nextPage"] as? Int == number + 1)
                pages += 1
            }
            #expect(pages == 3, "121 rounds: 50, 50, 21")
            #expect(seen.count == Set(seen).count, "no round on two pages")
            #expect(made.isSubset(of: Set(seen)) && seen.count == 121, "every round, the demo's too")
            let first = try await client.get("/api/v1/rounds").json()
            #expect((first["rounds"] as? [[String: Any]])?.first?["status"] as? String == "active", "live rounds first")
            // A round made after the others and finished tonight comes right after the live
            // ones, before older rounds never started: then the newest, whatever their state.
            let someone = try #require(
                try await client.get("/api/v1/players").json()["players"].flatMap { $0 as? [[String: Any]] }?.first?["id"] as? String)
            let scheduled = try await client.postJSON(
                "/api/v1/rounds", #"{"courseID":"\#(try #require(courseID))","name":"Old plan","start":false,"players":[{"playerID":"\#(someone)"}]}"#
            )
            #expect(scheduled.status == .created, "\(scheduled.text)")
            let tonight = try #require(try await makeRounds(1, client).first)
            #expect(try await client.postJSON("/api/v1/rounds/\(tonight)/complete", "{}").status == .ok)
            var all: [[String: Any]] = []
            for number in 1...4 { all += try await client.get("/api/v1/rounds?page=\(number)").json()["rounds"] as? [[String: Any]] ?? [] }
            let live = all.prefix { $0["status"] as? String == "active" }.count
            #expect(all[live]["id"] as? String == tonight, "the newest after the live ones, finished or not")
            #expect(all[live + 1]["status"] as? String == "scheduled")

            for bad in ["0", "-1", "abc", "100001", "1.5"] {
                let refused = try await client.get("/api/v1/rounds?page=\(bad)")
                #expect(refused.status == .unprocessableContent, "page=\(bad)")
                #expect(refused.headers[.contentType]?.hasPrefix("application/problem+json") == true)
            }
            let past = try await client.get("/api/v1/rounds?page=9").json()
            #expect((past["rounds"] as? [Any])?.isEmpty == true && past["nextPage"] is NSNull)
        }
    }

    @Test func theHomePageLinksToOlderRounds() async throws {
        try await withApp { client in
            _ = try await makeRounds(60, client)
            let anonymous = client.as(.anonymous)
            let first = try await anonymous.get("/")
            #expect(first.text.contains(#"href="/?page=2" rel="next">Older rounds"#))
            #expect(!first.text.contains("Newer rounds"))
            let second = try await anonymous.get("/?page=2")
            #expect(second.status == .ok)
            #expect(second.text.contains(#"href="/" rel="prev">Newer rounds"#))
            #expect(!second.text.contains("Older rounds"), "61 rounds: two pages")
            #expect(second.text.contains("Rounds, page 2"))
            // The oldest round is on the second page only.
            #expect(second.text.contains(">Week 1<") && !first.text.contains(">Week 1<"))
            // Each page is its own cached render; what is not a page number is the first page.
            #expect(try await anonymous.get("/?page=2").headers[Self.cache] == "hit")
            let junk = try await anonymous.get("/?page=%3Cscript%3E")
            #expect(junk.status == .ok && junk.headers[Self.cache] == "hit" && junk.text == first.text)
            // Past the last page: a 404, kept nowhere (pages nobody has cannot fill the cache).
            for past in ["/?page=3", "/?page=99999"] {
                let answer = try await anonymous.get(past)
                #expect(answer.status == .notFound && answer.headers[Self.cache] == nil, "\(past)")
            }
            #expect(try await anonymous.get("/").headers[Self.cache] == "hit")
        }
    }

    @Test func aRoundsScoreHistoryIsKeptAsBytesPerVersion() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let path = "/api/v1/rounds/\(roundID)/scores"
            let first = try await client.get(path)
            #expect(first.status == .ok && first.headers[.contentType] == "application/json; charset=utf-8")
            #expect(first.headers[Self.cache] == "miss")
            // An API client with a bearer token and no cookies, then an anonymous reader: the
            // same kept bytes (nothing in them depends on who asks).
            let again = try await client.get(path)
            #expect(again.headers[Self.cache] == "hit" && again.text == first.text)
            let athlete = try await client.as(.athlete).get(path)
            #expect(athlete.headers[Self.cache] == "hit" && athlete.text == first.text)
            let etag = try #require(first.headers[.eTag])
            #expect(try await client.get(path, headers: [.ifNoneMatch: etag]).status == .notModified)

            let before = try first.json()["events"] as? [[String: Any]] ?? []
            let player = try #require((try await client.roundDetail(roundID)["players"] as? [[String: Any]])?.last?["id"] as? String)
            let posted = try await client.postJSON(path, #"{"playerID":"\#(player)","hole":18,"strokes":7}"#)
            #expect(posted.status == .created)
            let after = try await client.get(path)
            #expect(after.headers[Self.cache] == "miss" && after.headers[.eTag] != etag)
            let events = try after.json()["events"] as? [[String: Any]] ?? []
            #expect(events.count == before.count + 1)
            #expect(events.contains { $0["playerID"] as? String == player && $0["hole"] as? Int == 18 && $0["strokes"] as? Int == 7 })
            #expect(try await client.get("/api/v1/rounds/\(UUID())/scores").status == .notFound)
        }
    }
}
