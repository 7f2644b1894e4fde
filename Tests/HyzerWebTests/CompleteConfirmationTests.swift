import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// "Complete the round?" says what completing does to everyone: who is made DNF, who withdrew,
/// and how many have not signed; never "every player has finished" over a withdrawn one.
@Suite struct CompleteConfirmationTests {
    @Test func theConfirmationNamesTheWithdrawnAndCountsTheUnsigned() async throws {
        try await withApp(seedDemo: false) { client in
            let (roundID, _, ids) = try await NightStalenessTests.night(client)
            _ = try LeagueAPITests.object(await client.postJSON("/api/v1/rounds/\(roundID)/players/\(ids[0])", "", method: .delete), .ok)
            for id in ids.dropFirst() {
                _ = try LeagueAPITests.object(
                    await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(id)","hole":2,"strokes":3}"#))
            }
            _ = try LeagueAPITests.object(await client.postJSON("/api/v1/rounds/\(roundID)/signatures", #"{"playerID":"\#(ids[1])"}"#), .ok)
            let page = try await client.get("/rounds/\(roundID)/complete").text
            #expect(page.contains("Every player still playing has finished all 2 holes."))
            #expect(page.contains("Withdrawn, and <strong>DNF</strong> already: Player 0"))
            #expect(page.contains("2 of 3 players have not signed their card."))
            #expect(!page.contains("Every player has finished"))
        }
    }

    @Test func withdrawingAsksFirstAndSaysWhatHappensToTheScores() async throws {
        try await withApp(seedDemo: false) { client in
            let (roundID, _, ids) = try await NightStalenessTests.night(client)
            let asked = try await client.postForm("/rounds/\(roundID)/players/\(ids[2])/withdraw", [])
            #expect(asked.status == .ok)
            #expect(asked.text.contains("Withdraw Player 2 from "))
            #expect(asked.text.contains("stays on the boards as did not finish (DNF), with the hole scored"))
            #expect(asked.text.contains("Yes, withdraw Player 2") && asked.text.contains(#"name="confirm" value="yes""#))
            func dnf() async throws -> [String] {
                let rows = try #require(try await client.get("/api/v1/rounds/\(roundID)/standings").json()["standings"] as? [[String: Any]])
                return rows.filter { $0["dnf"] as? Bool == true }.compactMap { $0["playerID"] as? String }
            }
            #expect(try await dnf().isEmpty, "nothing changes until confirmed")
            #expect(try await client.postForm("/rounds/\(roundID)/players/\(ids[2])/withdraw", [("confirm", "yes")]).status == .seeOther)
            #expect(try await dnf() == [ids[2]])
        }
    }
}
