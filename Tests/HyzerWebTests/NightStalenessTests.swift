import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Pages that showed a state the data no longer had (#37's blockers): a season night's round
/// reopened by the pages' forms, a withdrawn player on the boards and their card.
@Suite struct NightStalenessTests {
    /// A season's night with four players checked in, on one card (shotgun), each with hole 1.
    static func night(_ client: Client) async throws -> (roundID: String, cardID: String, ids: [String]) {
        let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"Tuesday league","divisions":["MPO"]}"#))
        let night = try LeagueAPITests.object(
            await client.postJSON("/api/v1/events", #"{"name":"Week 1","divisions":["MPO"],"seasonID":"\#(season["id"] ?? "")"}"#))
        let course = try LeagueAPITests.object(
            await client.postJSON("/api/v1/courses", #"{"name":"Two","holes":[{"number":1,"par":3},{"number":2,"par":3}]}"#))
        var ids: [String] = []
        for index in 0..<4 {
            let player = try LeagueAPITests.object(
                await client.postJSON("/api/v1/players", #"{"displayName":"Player \#(index)","handle":"p\#(index)"}"#))
            ids.append(try #require(player["id"] as? String))
            _ = try LeagueAPITests.object(
                await client.postJSON("/api/v1/events/\(night["id"] ?? "")/checkins", #"{"playerID":"\#(ids[index])","division":"MPO"}"#))
        }
        let players = ids.map { #"{"playerID":"\#($0)","division":"MPO"}"# }.joined(separator: ",")
        let round = try LeagueAPITests.object(
            await client.postJSON(
                "/api/v1/rounds",
                #"{"courseID":"\#(course["id"] ?? "")","eventID":"\#(night["id"] ?? "")","start":true,"players":[\#(players)]}"#))
        let roundID = try #require(round["id"] as? String)
        let cards = try LeagueAPITests.object(
            await client.postJSON(
                "/api/v1/rounds/\(roundID)/cards",
                #"{"cards":[{"name":"Card 1","startingHole":1,"playerIDs":[\#(ids.map { "\"\($0)\"" }.joined(separator: ","))]}]}"#),
            .ok)
        let cardID = try #require((cards["cards"] as? [[String: Any]])?.first?["id"] as? String)
        for id in ids {
            _ = try LeagueAPITests.object(await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(id)","hole":1,"strokes":3}"#))
        }
        // Every page read once, so that each has something kept to go stale.
        for path in ["/rounds/\(roundID)", "/rounds/\(roundID)/leaderboard", "/rounds/\(roundID)/cards/\(cardID)", "/tv"] {
            _ = try await client.get(path)
            _ = try await client.as(.anonymous).get(path)
        }
        return (roundID, cardID, ids)
    }

    @Test func aReopenedSeasonNightIsActiveOnEveryPage() async throws {
        try await withApp(seedDemo: false) { client in
            let (roundID, _, _) = try await Self.night(client)
            #expect(try await client.postForm("/rounds/\(roundID)/complete", [("confirm", "yes")]).status == .seeOther)
            #expect(try await client.get("/rounds/\(roundID)").text.contains("badge completed"))
            #expect(try await client.postForm("/rounds/\(roundID)/reopen", []).status == .seeOther)
            #expect(try await client.get("/api/v1/rounds/\(roundID)").json()["status"] as? String == "active")
            for path in ["/rounds/\(roundID)", "/rounds/\(roundID)/leaderboard"] {
                #expect(try await !client.get(path).text.contains("badge completed"), "\(path) for the director")
                #expect(try await !client.as(.anonymous).get(path).text.contains("badge completed"), "\(path) for the public")
            }
            #expect(try await client.postForm("/rounds/\(roundID)/reopen", []).status == .conflict, "reopened once")
        }
    }

    @Test func aWithdrawnPlayerIsDNFOnTheBoardsAndOffTheCard() async throws {
        try await withApp(seedDemo: false) { client in
            let (roundID, cardID, ids) = try await Self.night(client)
            let gone = ids[3]
            #expect(try await client.postForm("/rounds/\(roundID)/players/\(gone)/withdraw", [("confirm", "yes")]).status == .seeOther)
            let standings = try await client.get("/api/v1/rounds/\(roundID)/standings").json()["standings"] as? [[String: Any]] ?? []
            #expect(standings.first { $0["playerID"] as? String == gone }?["dnf"] as? Bool == true, "the API")
            for path in ["/rounds/\(roundID)", "/rounds/\(roundID)/leaderboard"] {
                let page = try await client.as(.anonymous).get(path).text
                #expect(page.contains(#"<tr data-player="\#(gone)" class="dnf">"#), "\(path) shows them DNF at once")
            }
            // Their card: no stepper, no signing, and a hole saved without them is accepted whole.
            let card = try await client.get("/rounds/\(roundID)/cards/\(cardID)?hole=2").text
            #expect(card.contains("Player 3") && card.contains("withdrew"))
            #expect(!card.contains("strokes[\(gone)]") && !card.contains("Sign for Player 3"))
            let scores = ids.prefix(3).map { #"{"playerID":"\#($0)","strokes":3}"# }.joined(separator: ",")
            let saved = try await client.postJSON("/api/v1/rounds/\(roundID)/cards/\(cardID)/holes/2", #"{"scores":[\#(scores)]}"#)
            #expect(saved.status == .ok)
            // Every hole of the card is in for whoever still plays: the review and signing are there.
            let done = try await client.get("/rounds/\(roundID)/cards/\(cardID)").text
            #expect(done.contains("review-card") && done.contains("Sign for Player 0"))
            let state = try await client.get("/api/v1/rounds/\(roundID)/cards/\(cardID)").json()
            let listed = (state["players"] as? [[String: Any]] ?? []).first { $0["id"] as? String == gone }
            #expect(listed?["withdrawn"] as? Bool == true)
        }
    }
}
