import Foundation
import HTTPTypes
import HummingbirdTesting
import HyzerCore
import Testing

@testable import HyzerWeb

/// What a director's and an attacker's pass over ratings found, each kept fixed: a long
/// player page in pages, a misspelt rating key, the season form, the next night's handicap,
/// the reasons a round gives, the statistics query, and entering a rating from the page.
@Suite struct RatingFindingsTests {
    static func course(_ client: Client, holes: Int = 3) async throws -> String {
        let list = (1...holes).map { #"{"number":\#($0),"par":3}"# }.joined(separator: ",")
        return try #require(
            try LeagueAPITests.object(await client.postJSON("/api/v1/courses", #"{"name":"C\#(holes)","holes":[\#(list)]}"#))["id"] as? String)
    }

    static func player(_ client: Client, _ handle: String) async throws -> String {
        try #require(
            try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"\#(handle)","handle":"\#(handle)"}"#))["id"]
                as? String)
    }

    static func round(_ client: Client, course: String, players: [String]) async throws -> String {
        let entries = players.map { #"{"playerID":"\#($0)"}"# }.joined(separator: ",")
        return try #require(
            try LeagueAPITests.object(
                await client.postJSON("/api/v1/rounds", #"{"courseID":"\#(course)","start":true,"players":[\#(entries)]}"#))["id"] as? String)
    }

    @Test func aLongPlayerPageComesInPagesOfFifty() async throws {
        try await withApp(seedDemo: false) { client in
            let course = try await Self.course(client, holes: 1)
            let me = try await Self.player(client, "longtimer")
            for _ in 0..<51 {
                let round = try await Self.round(client, course: course, players: [me])
                _ = try await client.postJSON("/api/v1/rounds/\(round)/scores", #"{"playerID":"\#(me)","hole":1,"strokes":2}"#)
            }
            let first = try await client.as(.anonymous).get("/players/\(me)").text
            #expect(first.components(separatedBy: #"<td class="rating">"#).count - 1 == 50)
            #expect(first.contains("Rounds 1–50 of 51") && first.contains(#"href="/players/\#(me)?page=2""#))
            #expect(first.contains("<td class=\"name\">Birdies</td><td class=\"count\">51</td>"), "every round's holes counted")
            let second = try await client.as(.anonymous).get("/players/\(me)?page=2").text
            #expect(second.components(separatedBy: #"<td class="rating">"#).count - 1 == 1 && second.contains("Newer rounds"))
            #expect(try await client.as(.anonymous).get("/players/\(me)?page=3").status == .notFound)
        }
    }

    @Test func aRatingIsEnteredOnlyByNameAndFromThePlayersPage() async throws {
        try await withApp(seedDemo: false) { client in
            let me = try await Self.player(client, "rated")
            #expect(try await client.postJSON("/api/v1/players/\(me)/rating", #"{"rating":900}"#, method: .put).status == .ok)
            for body in [#"{}"#, #"{"Rating":950}"#] {
                let refused = try await client.postJSON("/api/v1/players/\(me)/rating", body, method: .put)
                #expect(refused.status == .unprocessableContent && refused.text.contains("rating"), "\(body): \(refused.text)")
            }
            #expect(try await client.get("/api/v1/players/\(me)/ratings").json()["enteredRating"] as? Int == 900, "nothing cleared")

            // The edit page carries the rating: shown, changed, refused when out of range, cleared.
            #expect(try await client.get("/players/\(me)/edit").text.contains(#"name="rating" value="900""#))
            func save(_ rating: String) async throws -> TestResponse {
                try await client.postForm("/players/\(me)", [("displayName", "Rated"), ("handle", "rated"), ("division", ""), ("rating", rating)])
            }
            #expect(try await save("935").status == .seeOther)
            #expect(try await client.get("/api/v1/players/\(me)/ratings").json()["enteredRating"] as? Int == 935)
            let refused = try await save("2000")
            #expect(refused.status == .unprocessableContent && refused.text.contains("A rating is a whole number from 400 to 1200"))
            #expect(try await client.get("/api/v1/players/\(me)/ratings").json()["enteredRating"] as? Int == 935)
            #expect(try await save("").status == .seeOther)
            #expect(try await client.get("/api/v1/players/\(me)/ratings").json()["enteredRating"] is NSNull)
            #expect(
                try await client.as(.athlete).postForm("/players/\(me)", [("displayName", "X"), ("handle", "rated"), ("rating", "1200")]).status
                    == .forbidden)
        }
    }

    @Test func theSeasonFormTakesFieldSizeAndByRatingNeedsNoRounds() async throws {
        try await withApp(seedDemo: false) { client in
            // The form sends its "places past the table" select whatever the rule.
            let saved = try await client.postForm(
                "/seasons", [("name", "Field"), ("divisions", "MPO"), ("rule", "fieldSize"), ("pastTable", "last"), ("placesBy", "gross")])
            #expect(saved.status == .seeOther, "\(saved.text.prefix(400))")
            #expect(!(try await client.get("/seasons/new").text.contains(#"name="minimumRounds" value="3""#)), "no minimum filled in")
            let rated = try await client.postForm(
                "/seasons",
                [
                    ("name", "Rated"), ("divisions", "MPO"), ("rule", "fieldSize"), ("pastTable", "last"), ("placesBy", "net"),
                    ("handicap", "rating"), ("minimumRounds", ""),
                ])
            #expect(rated.status == .seeOther, "\(rated.text.prefix(400))")
            let seasons = try await client.get("/api/v1/seasons").json()["seasons"] as? [[String: Any]] ?? []
            let handicap = seasons.first { $0["name"] as? String == "Rated" }?["handicap"] as? [String: Any]
            #expect(handicap?["method"] as? String == "rating" && handicap?["minimumRounds"] as? Int == 0, "\(handicap ?? [:])")
        }
    }

    @Test func theNextNightsHandicapIsTheSeasonThePlayerPlays() async throws {
        try await withApp(seedDemo: false) { client in
            let season = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/seasons", #"{"name":"Winter","divisions":["MPO"],"handicap":{"method":"percentage","minimumRounds":1}}"#))
            let course = try await Self.course(client, holes: 1)
            let me = try await Self.player(client, "winterer")
            let event = try LeagueAPITests.object(
                await client.postJSON("/api/v1/events", #"{"name":"Night","divisions":["MPO"],"seasonID":"\#(season["id"] ?? "")"}"#))
            let round = try #require(
                try LeagueAPITests.object(
                    await client.postJSON(
                        "/api/v1/rounds",
                        #"{"courseID":"\#(course)","start":true,"eventID":"\#(event["id"] ?? "")","players":[{"playerID":"\#(me)","division":"MPO"}]}"#
                    ))["id"] as? String)
            _ = try await client.postJSON("/api/v1/rounds/\(round)/scores", #"{"playerID":"\#(me)","hole":1,"strokes":5}"#)
            #expect(try await client.postJSON("/api/v1/rounds/\(round)/complete", "{}").status == .ok)
            let before = try await client.get("/api/v1/players/\(me)/handicaps").json()["current"] as? [String: Any]
            #expect(before?["handicap"] as? Double == 36)
            // A new season with a stricter method, nobody in it yet: the player's next night is still Winter's.
            _ = try await client.postJSON("/api/v1/seasons", #"{"name":"Spring","divisions":["MPO"],"handicap":{"method":"bestOfRecent"}}"#)
            let after = try await client.get("/api/v1/players/\(me)/handicaps").json()["current"] as? [String: Any]
            #expect(after?["handicap"] as? Double == 36)
            #expect(try await client.get("/players/\(me)").text.contains("handicap 36.0 (Winter)"))
        }
    }

    @Test func aRoundSaysWhoIsStillPlayingAndTheStatisticsQueryIsExact() async throws {
        try await withApp(seedDemo: false) { client in
            let course = try await Self.course(client)
            var players: [String] = []
            for index in 0..<6 {
                let id = try await Self.player(client, "sp\(index)")
                _ = try await client.postJSON("/api/v1/players/\(id)/rating", #"{"rating":\#(1000 - index * 10)}"#, method: .put)
                players.append(id)
            }
            let round = try await Self.round(client, course: course, players: players)
            _ = try await client.postJSON("/api/v1/rounds/\(round)/scores", #"{"playerID":"\#(players[0])","hole":1,"strokes":3}"#)
            _ = try await client.postJSON("/api/v1/rounds/\(round)/scores", #"{"playerID":"\#(players[1])","hole":1,"strokes":"DNF"}"#)
            let live = try await client.get("/api/v1/rounds/\(round)/ratings").json()
            let reasons = Dictionary(
                uniqueKeysWithValues: (live["unrated"] as? [[String: Any]] ?? []).compactMap { row in
                    (row["playerID"] as? String).map { ($0, row["reason"] as? String ?? "") }
                })
            #expect(reasons[players[0]] == "Still playing." && reasons[players[1]] == "Did not finish the round.", "\(reasons)")
            #expect((live["reason"] as? String)?.contains("under way") == true, "\(live)")

            let other = try await Self.course(client, holes: 2)
            let query = "/api/v1/courses/\(course)/stats"
            #expect(try await client.get("\(query)?roundID=\(UUID())").status == .notFound)
            #expect(try await client.get("/api/v1/courses/\(other)/stats?roundID=\(round)").status == .unprocessableContent)
            #expect(try await client.get("\(query)?roundID=\(round)&eventID=\(UUID())").status == .unprocessableContent)
            #expect(try await client.get("\(query)?roundID=\(round)").status == .ok)
            let removed = try await client.execute(uri: "/api/v1/rounds/\(round)", method: .delete)
            #expect(removed.status.code < 300, "\(removed.text)")
            #expect(try await client.get("/api/v1/rounds/\(round)/ratings").status == .notFound, "a removed round has no ratings")
            #expect(try await client.get("\(query)?roundID=\(round)").status == .notFound)
        }
    }
}
