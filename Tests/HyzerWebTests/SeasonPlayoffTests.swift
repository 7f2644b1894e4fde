import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A tie for first on a league night that a playoff decided: the season's table gives the
/// winner first place's points, as the night's page shows them first.
@Suite struct SeasonPlayoffTests {
    @Test func thePlayoffWinnerTakesFirstPlacesPointsInTheSeason() async throws {
        try await withApp(seedDemo: false) { client in
            let (roundID, _, ids) = try await NightStalenessTests.night(client)
            for (id, strokes) in zip(ids, [3, 3, 4, 5]) {
                _ = try LeagueAPITests.object(
                    await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(id)","hole":2,"strokes":\#(strokes)}"#))
            }
            let round = try await client.get("/api/v1/rounds/\(roundID)").json()
            let eventID = try #require(round["eventID"] as? String)
            let seasonID = try #require(try await client.get("/api/v1/events/\(eventID)").json()["seasonID"] as? String)
            #expect(try await client.postForm("/rounds/\(roundID)/complete", [("confirm", "yes")]).status == .seeOther)

            func table() async throws -> [String: (place: Int?, points: Int)] {
                let standings = try await client.get("/api/v1/seasons/\(seasonID)/standings").json()
                let entries = try #require((standings["divisions"] as? [[String: Any]])?.first?["standings"] as? [[String: Any]])
                return Dictionary(
                    uniqueKeysWithValues: entries.map { entry in
                        let night = (entry["nights"] as? [[String: Any]])?.first
                        return (entry["playerID"] as? String ?? "", (night?["place"] as? Int, entry["points"] as? Int ?? -1))
                    })
            }
            let tied = try await table()
            #expect(tied[ids[0]]?.place == 1 && tied[ids[1]]?.place == 1 && tied[ids[0]]?.points == tied[ids[1]]?.points)

            _ = try LeagueAPITests.object(
                await client.postJSON("/api/v1/events/\(eventID)/playoff", #"{"division":"MPO","winner":"\#(ids[1])"}"#), .ok)
            let decided = try await table()
            #expect(decided[ids[1]]?.place == 1 && decided[ids[0]]?.place == 2)
            #expect((decided[ids[1]]?.points ?? 0) > (decided[ids[0]]?.points ?? 0))
            let page = try await client.get("/seasons/\(seasonID)").text
            #expect(page.range(of: "Player 1")?.lowerBound ?? page.endIndex < page.range(of: "Player 0")?.lowerBound ?? page.startIndex)
        }
    }
}
