import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// The small things a first night tripped on (#37, item 13), each on the page named.
@Suite struct NightPolishTests {
    @Test func theOnlyCourseIsChosenAndSeasonNamesLinkToPlayers() async throws {
        try await withApp(seedDemo: false) { client in
            let course = try LeagueAPITests.object(await client.postJSON("/api/v1/courses", #"{"name":"Pine","holes":[{"number":1,"par":3}]}"#))
            let page = try await client.get("/rounds/new").text
            #expect(page.contains(#"<option value="\#(course["id"] ?? "")" selected>"#), "the club's only course is preselected")

            let (roundID, cardID, ids) = try await NightStalenessTests.night(client)
            _ = roundID
            let seasonID = try #require(
                (try await client.get("/api/v1/seasons").json()["seasons"] as? [[String: Any]])?.first?["id"] as? String)
            // Hole 2 for everyone: the card is done, and says so at the top.
            let scores = ids.map { #"{"playerID":"\#($0)","strokes":3}"# }.joined(separator: ",")
            #expect(try await client.postJSON("/api/v1/rounds/\(roundID)/cards/\(cardID)/holes/2", #"{"scores":[\#(scores)]}"#).status == .ok)
            let card = try await client.get("/rounds/\(roundID)/cards/\(cardID)").text
            #expect(card.contains("Every hole of this card is in: check the whole card and <a href=\"#sign\">sign below</a>."))
            #expect(try await client.postJSON("/api/v1/rounds/\(roundID)/complete", "{}").status == .ok)
            let season = try await client.get("/seasons/\(seasonID)").text
            #expect(season.contains(#"<a class="player-link" href="/players/\#(ids[0])">Player 0</a>"#))
        }
    }

    @Test func theUsualDivisionSuggestsTheClubsDivisions() async throws {
        try await withApp(seedDemo: false) { client in
            _ = try LeagueAPITests.object(await client.postJSON("/api/v1/events", #"{"name":"Night","divisions":["MPO","FPO","MA40"]}"#))
            let player = try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"Una","handle":"una"}"#))
            let page = try await client.get("/players/\(player["id"] ?? "")/edit").text
            #expect(page.contains(#"list="club-divisions""#))
            #expect(page.contains(#"<option value="MPO"></option><option value="FPO"></option><option value="MA40"></option>"#))
        }
    }
}
