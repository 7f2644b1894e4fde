import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// A late arrival joins a card under way (#37, item 6): the card keeps its place, and the holes
/// the card played before they came are left blank ("missed"), never saved as par by one tap.
@Suite struct LateArrivalCardTests {
    @Test func theCardKeepsItsPlaceAndMissedHolesStayBlank() async throws {
        try await withApp(seedDemo: false) { client in
            let (roundID, cardID, ids) = try await NightStalenessTests.night(client)
            // The card has played hole 1 of 2 when a newcomer joins it.
            let late = try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"Late Larry","handle":"larry"}"#))
            let lateID = try #require(late["id"] as? String)
            let added = try await client.postJSON(
                "/api/v1/rounds/\(roundID)/players", #"{"playerID":"\#(lateID)","division":"MPO","cardID":"\#(cardID)"}"#)
            #expect(added.status == .ok || added.status == .created, "\(added.text)")

            // The card stays where it was (hole 2), not back on hole 1.
            let page = try await client.get("/rounds/\(roundID)/cards/\(cardID)").text
            #expect(page.contains("<h1>Hole 2 "), "\(page)")
            // On a hole the others played, the newcomer's stepper is blank and not required.
            let first = try await client.get("/rounds/\(roundID)/cards/\(cardID)?hole=1").text
            #expect(first.contains(#"name="strokes[\#(lateID)]" value="" aria-label="Throws for Late Larry" placeholder="missed">"#), "\(first)")
            #expect(first.contains("Missed: the card played this hole before Late Larry joined"))
            // Saved as the page sends it, blank: the others' entries count, the newcomer gets none.
            let saved = try await client.postForm(
                "/rounds/\(roundID)/cards/\(cardID)/holes/1",
                ids.prefix(3).map { ("strokes[\($0)]", "4") } + [("strokes[\(lateID)]", "")])
            #expect(saved.status == .seeOther)
            let standings = try await client.get("/api/v1/rounds/\(roundID)/standings").json()["standings"] as? [[String: Any]] ?? []
            #expect(standings.first { $0["playerID"] as? String == lateID }?["thru"] as? Int == 0, "no hole recorded for the newcomer")
            #expect(standings.first { $0["playerID"] as? String == ids[0] }?["strokes"] as? Int == 4, "the others' corrections saved")
        }
    }
}
