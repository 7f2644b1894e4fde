import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A late arrival on a season's league night joins the night's check-in list (its record of
/// who played and paid), in their usual division when none is chosen.
@Suite struct LateArrivalCheckInTests {
    @Test func aLateArrivalIsCheckedInOnceInTheirUsualDivision() async throws {
        try await withApp(seedDemo: false) { client in
            let (roundID, _, ids) = try await NightStalenessTests.night(client)
            let eventID = try #require(try await client.get("/api/v1/rounds/\(roundID)").json()["eventID"] as? String)
            let late = try LeagueAPITests.object(
                await client.postJSON("/api/v1/players", #"{"displayName":"Late Lou","handle":"lou"}"#))
            let lateID = try #require(late["id"] as? String)
            _ = try LeagueAPITests.object(await client.postJSON("/api/v1/players/\(lateID)", #"{"division":"MPO"}"#, method: .patch), .ok)
            // The page's form, division left on "their usual division".
            let added = try await client.postForm("/rounds/\(roundID)/players", [("playerID", lateID), ("division", "")])
            #expect(added.status == .seeOther)
            let listed = try #require(try await client.get("/api/v1/events/\(eventID)/checkins").json()["checkins"] as? [[String: Any]])
            #expect(Set(listed.compactMap { $0["playerID"] as? String }) == Set(ids + [lateID]))
            #expect(listed.first { $0["playerID"] as? String == lateID }?["division"] as? String == "MPO")

            // Withdrawn and added again: still one check-in, the fee as it was.
            _ = try LeagueAPITests.object(
                await client.postJSON("/api/v1/events/\(eventID)/checkins", #"{"playerID":"\#(lateID)","division":"MPO","paid":true}"#), .ok)
            _ = try await client.postJSON("/api/v1/rounds/\(roundID)/players/\(lateID)", "", method: .delete)
            _ = try LeagueAPITests.object(await client.postJSON("/api/v1/rounds/\(roundID)/players", #"{"playerID":"\#(lateID)"}"#))
            let again = try #require(try await client.get("/api/v1/events/\(eventID)/checkins").json()["checkins"] as? [[String: Any]])
            #expect(again.filter { $0["playerID"] as? String == lateID }.count == 1)
            #expect(again.first { $0["playerID"] as? String == lateID }?["paid"] as? Bool == true)
        }
    }
}
