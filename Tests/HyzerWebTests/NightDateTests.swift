import Foundation
import Hummingbird
import HummingbirdTesting
import HyzerCore
import Testing

/// A league night has a day: its rounds are named by it (not by the day they were set up on
/// the server), and the season and the night's page show it.
@Suite struct NightDateTests {
    private func setUp(_ client: Client) async throws -> (season: String, course: String) {
        let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"Tuesday league","divisions":["MPO"]}"#))
        let course = try LeagueAPITests.object(
            await client.postJSON("/api/v1/courses", #"{"name":"Birch Park","holes":[{"number":1,"par":3}]}"#))
        return (try #require(season["id"] as? String), try #require(course["id"] as? String))
    }

    @Test func aDatedNightNamesItsRoundsByItsDay() async throws {
        try await withApp(seedDemo: false) { client in
            let (season, course) = try await setUp(client)
            let night = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/events", #"{"name":"Week 1","divisions":["MPO"],"seasonID":"\#(season)","playedOn":"2026-12-03"}"#))
            let id = try #require(night["id"] as? String)
            #expect(night["playedOn"] as? String == "2026-12-03")
            let player = try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"Ann","handle":"ann"}"#))
            let entry = #"{"playerID":"\#(player["id"] ?? "")","division":"MPO"}"#
            let round = try LeagueAPITests.object(
                await client.postJSON("/api/v1/rounds", #"{"courseID":"\#(course)","eventID":"\#(id)","players":[\#(entry)]}"#))
            let name = try #require(round["name"] as? String)
            #expect(name.hasPrefix("Birch Park — "))
            #expect(name.contains("Thursday") && name.contains("3") && name.contains("Dec"), "named by the night, not today: \(name)")

            let page = try await client.get("/events/\(id)").text
            #expect(page.contains(try #require(Format.day("2026-12-03"))))
            #expect(try await client.get("/seasons/\(season)").text.contains("(\(try #require(Format.day("2026-12-03"))), 1 round)"))
        }
    }

    /// A night set up late for an earlier day takes its place among the nights by its day.
    @Test func theSeasonListsItsNightsByTheirDay() async throws {
        try await withApp(seedDemo: false) { client in
            let (season, _) = try await setUp(client)
            for (name, day) in [("Later night", "2026-12-10"), ("Earlier night", "2026-12-03")] {
                _ = try LeagueAPITests.object(
                    await client.postJSON(
                        "/api/v1/events", #"{"name":"\#(name)","divisions":["MPO"],"seasonID":"\#(season)","playedOn":"\#(day)"}"#))
            }
            let page = try await client.get("/seasons/\(season)").text
            let earlier = try #require(page.range(of: "Earlier night"))
            let later = try #require(page.range(of: "Later night"))
            #expect(earlier.lowerBound < later.lowerBound)
        }
    }

    @Test func theDateIsCheckedChangedAndCleared() async throws {
        try await withApp(seedDemo: false) { client in
            let (season, _) = try await setUp(client)
            let refused = try await client.postJSON("/api/v1/events", #"{"name":"Week 1","seasonID":"\#(season)","playedOn":"2026-02-30"}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("YYYY-MM-DD"))
            #expect((try await client.get("/api/v1/events").json()["events"] as? [Any])?.isEmpty == true)

            let night = try LeagueAPITests.object(await client.postJSON("/api/v1/events", #"{"name":"Week 1","seasonID":"\#(season)"}"#))
            let id = try #require(night["id"] as? String)
            #expect(night["playedOn"] is NSNull)
            let moved = try LeagueAPITests.object(await client.postJSON("/api/v1/events/\(id)", #"{"playedOn":"2026-12-10"}"#, method: .patch), .ok)
            #expect(moved["playedOn"] as? String == "2026-12-10")
            #expect(moved["name"] as? String == "Week 1")
            let cleared = try LeagueAPITests.object(await client.postJSON("/api/v1/events/\(id)", #"{"playedOn":""}"#, method: .patch), .ok)
            #expect(cleared["playedOn"] is NSNull)
        }
    }

    @Test func theNewNightFormSuggestsTodayAndTheEditFormKeepsTheDay() async throws {
        try await withApp(seedDemo: false) { client in
            let (season, _) = try await setUp(client)
            let form = try await client.get("/events/new?seasonID=\(season)").text
            // The suggestion is a day a date field takes ("YYYY-MM-DD", no zone), and the form
            // sent back as suggested is accepted.
            let suggested = try #require(form.firstMatch(of: /type="date" name="playedOn" value="([^"]*)"/)?.1)
            #expect(suggested.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil, "suggested \(suggested)")
            let asSuggested = try await client.postForm(
                "/events", [("name", "Week 1"), ("divisions", "MPO"), ("seasonID", season), ("playedOn", String(suggested))])
            #expect(asSuggested.status == .seeOther)
            let created = try await client.postForm(
                "/events", [("name", "Week 2"), ("divisions", "MPO"), ("seasonID", season), ("playedOn", "2026-12-10")])
            let path = try #require(created.headers[.location])
            #expect(try await client.get(path + "/edit").text.contains(#"name="playedOn" value="2026-12-10""#))
            let bad = try await client.postForm(path, [("name", "Week 2"), ("divisions", "MPO"), ("playedOn", "10/12/2026")])
            #expect(bad.status == .unprocessableContent)
            #expect(bad.text.contains("Write the day as YYYY-MM-DD"))
            #expect(try await client.postForm(path, [("name", "Week 2"), ("divisions", "MPO"), ("playedOn", "")]).status == .seeOther)
            #expect(try await client.get(path + "/edit").text.contains(#"name="playedOn" value="""#))
        }
    }

    @Test func theDayTravelsWithTheNightsRecord() {
        var event = Event(id: UUID(), name: "Week 1", divisions: [], createdAt: Date(), updatedAt: HLC(wallMillis: 1, counter: 0, deviceID: UUID()))
        event.playedOn = "2026-12-03"
        #expect(EventPayload(event).event(updatedAt: event.updatedAt)?.playedOn == "2026-12-03")
    }
}
