import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HyzerWeb

/// "Remove" on an edit page asks first, without JavaScript: one POST without `confirm=yes`
/// removes nothing and answers with a page naming what would be removed and what is kept;
/// only the POST that page's button makes (`confirm=yes`) removes.
@Suite struct RemoveConfirmationTests {
    @Test func oneClickRemovesNothingAndAsksFirstForEveryKind() async throws {
        try await withApp(seedDemo: false) { client in
            let course = try LeagueAPITests.object(
                await client.postJSON("/api/v1/courses", #"{"name":"Typo Park","holes":[{"number":1,"par":3}]}"#))
            let player = try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"Wrong Name","handle":"wrong.name"}"#))
            let event = try LeagueAPITests.object(await client.postJSON("/api/v1/events", #"{"name":"Typo night"}"#))
            let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"Typo season"}"#))
            let courseID = try #require(course["id"] as? String)
            let athlete = try #require(client.users[.athlete]?.playerID).uuidString.lowercased()
            let round = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/rounds", #"{"courseID":"\#(courseID)","name":"Typo round","players":[{"playerID":"\#(athlete)"}]}"#))
            let records: [(list: String, id: String, name: String, exists: String)] = [
                ("courses", courseID, "Typo Park", "/courses/\(courseID)/edit"),
                ("players", try #require(player["id"] as? String), "Wrong Name", "/players/\(try #require(player["id"] as? String))/edit"),
                ("events", try #require(event["id"] as? String), "Typo night", "/api/v1/events/\(try #require(event["id"] as? String))"),
                ("seasons", try #require(season["id"] as? String), "Typo season", "/api/v1/seasons/\(try #require(season["id"] as? String))"),
                ("rounds", try #require(round["id"] as? String), "Typo round", "/api/v1/rounds/\(try #require(round["id"] as? String))"),
            ]
            // The round first: the course is only deleted once no round refers to it.
            for record in records.reversed() {
                let action = "/\(record.list)/\(record.id)/remove"
                for fields in [[], [("confirm", "no")], [("confirm", "")]] {
                    let asked = try await client.postForm(action, fields)
                    #expect(asked.status == .ok, "\(action) \(fields)")
                    #expect(asked.text.contains("“\(record.name)”") && asked.text.contains("Kept"), "\(asked.text)")
                    // Its button confirms, to the same address; a link goes back to the edit page.
                    #expect(asked.text.contains(#"action="\#(action)""#) && asked.text.contains(#"name="confirm" value="yes""#))
                    #expect(asked.text.contains(#"href="/\#(record.list)/\#(record.id)/edit""#))
                    #expect(try await client.get(record.exists).status == .ok, "\(record.list) was removed by one click")
                }
                let removed = try await client.postForm(action, [("confirm", "yes")])
                #expect(removed.status == .seeOther)
                #expect(removed.headers[.location] == (record.list == "rounds" ? "/" : "/\(record.list)") + "?notice=deleted")
                #expect(try await client.get(record.exists).status == .notFound, "\(record.list) confirmed is removed")
            }
        }
    }

    @Test func aRoundWithScoresSaysItIsArchivedAndWhatIsKept() async throws {
        try await withApp { client in
            let roundID = try #require((try await client.get("/api/v1/rounds").json()["rounds"] as? [[String: Any]])?.first?["id"] as? String)
            let asked = try await client.postForm("/rounds/\(roundID)/remove", [])
            #expect(asked.status == .ok)
            #expect(asked.text.contains("Remove the round “Tuesday League”?"))
            #expect(asked.text.contains("it is archived") && asked.text.contains("every score and signature"))
            #expect(try await client.get("/").text.contains("Tuesday League"), "still on the home page")
            let removed = try await client.postForm("/rounds/\(roundID)/remove", [("confirm", "yes")])
            #expect(removed.headers[.location] == "/?notice=archived")
            #expect(try await !client.get("/").text.contains("Tuesday League"), "off the home page")
            #expect(try await client.get("/api/v1/rounds/\(roundID)/standings").status == .ok, "its scores are kept")
        }
    }

    @Test func aRefusedRemovalIsStillRefusedOnceConfirmed() async throws {
        try await withApp { client in
            // Nobody removes their own account: asked first, then refused, nothing removed.
            let me = try #require(client.users[.coach]?.playerID).uuidString.lowercased()
            #expect(try await client.postForm("/players/\(me)/remove", []).status == .ok)
            #expect(try await client.postForm("/players/\(me)/remove", [("confirm", "yes")]).status == .conflict)
            #expect(try await client.get("/players/\(me)/edit").status == .ok)
        }
    }
}
