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

    /// A season with two divisions, two nights; the second night's round under way with Ann.
    private func twoNights(_ client: Client) async throws -> (first: String, second: String, roundID: String) {
        let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"Fall","divisions":["MPO","Rec"]}"#))
        let seasonID = try #require(season["id"] as? String)
        var nights: [String] = []
        for name in ["Week 1", "Week 2"] {
            let night = try LeagueAPITests.object(
                await client.postJSON("/api/v1/events", #"{"name":"\#(name)","divisions":["MPO","Rec"],"seasonID":"\#(seasonID)"}"#))
            nights.append(try #require(night["id"] as? String))
        }
        let course = try LeagueAPITests.object(await client.postJSON("/api/v1/courses", #"{"name":"One","holes":[{"number":1,"par":3}]}"#))
        let ann = try #require(try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"Ann","handle":"ann"}"#))["id"])
        let round = try LeagueAPITests.object(
            await client.postJSON(
                "/api/v1/rounds",
                #"{"courseID":"\#(course["id"] ?? "")","eventID":"\#(nights[1])","start":true,"players":[{"playerID":"\#(ann)","division":"MPO"}]}"#))
        return (nights[0], nights[1], try #require(round["id"] as? String))
    }

    private func division(of playerID: String, in roundID: String, _ client: Client) async throws -> String? {
        let players = try #require(try await client.get("/api/v1/rounds/\(roundID)").json()["players"] as? [[String: Any]])
        return players.first { $0["id"] as? String == playerID }?["division"] as? String
    }

    /// Without a usual division, a late arrival plays the division of tonight's check-in, else
    /// the one they played last this season — as a check-in would choose.
    @Test func aLateArrivalPlaysTheDivisionACheckInWouldChoose() async throws {
        try await withApp(seedDemo: false) { client in
            let (first, second, roundID) = try await twoNights(client)
            let finn = try #require(
                try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"Finn","handle":"finn"}"#))["id"] as? String)
            let gia = try #require(
                try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"Gia","handle":"gia"}"#))["id"] as? String)
            _ = try LeagueAPITests.object(await client.postJSON("/api/v1/events/\(first)/checkins", #"{"playerID":"\#(finn)","division":"Rec"}"#))
            _ = try LeagueAPITests.object(await client.postJSON("/api/v1/events/\(second)/checkins", #"{"playerID":"\#(gia)","division":"Rec"}"#))
            let added = try await client.postForm("/rounds/\(roundID)/players", [("playerID", finn), ("division", "")])
            #expect(added.status == .seeOther, "\(added.text.prefix(300))")
            #expect(try await division(of: finn, in: roundID, client) == "Rec")
            _ = try LeagueAPITests.object(await client.postJSON("/api/v1/rounds/\(roundID)/players", #"{"playerID":"\#(gia)"}"#))
            #expect(try await division(of: gia, in: roundID, client) == "Rec")
            // Nobody knows Hal's division: it is asked for.
            let hal = try #require(
                try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"Hal","handle":"hal"}"#))["id"] as? String)
            let asked = try await client.postJSON("/api/v1/rounds/\(roundID)/players", #"{"playerID":"\#(hal)"}"#)
            #expect(asked.status == .unprocessableContent && asked.text.contains("Choose Hal's division"))
        }
    }

    /// A card takes at most six: a seventh late arrival is refused, and nothing is written.
    @Test func aFullCardTakesNoLateArrival() async throws {
        try await withApp(seedDemo: false) { client in
            let (roundID, cardID, _) = try await NightStalenessTests.night(client)
            var late: [String] = []
            for index in 0..<3 {
                let player = try LeagueAPITests.object(
                    await client.postJSON("/api/v1/players", #"{"displayName":"Late \#(index)","handle":"late\#(index)"}"#))
                late.append(try #require(player["id"] as? String))
            }
            for id in late.prefix(2) {
                _ = try LeagueAPITests.object(
                    await client.postJSON("/api/v1/rounds/\(roundID)/players", #"{"playerID":"\#(id)","cardID":"\#(cardID)","division":"MPO"}"#))
            }
            let refused = try await client.postJSON(
                "/api/v1/rounds/\(roundID)/players", #"{"playerID":"\#(late[2])","cardID":"\#(cardID)","division":"MPO"}"#)
            #expect(refused.status == .unprocessableContent && refused.text.contains("Card 1 is full: at most 6 play together"))
            #expect(try await division(of: late[2], in: roundID, client) == nil)
            let players = try #require(try await client.get("/api/v1/rounds/\(roundID)").json()["players"] as? [[String: Any]])
            #expect(!players.contains { $0["id"] as? String == late[2] })
        }
    }

    /// A player checked in before the night changes their own division only until it starts.
    @Test func aPlayerKeepsTheirDivisionOnceTheNightStarts() async throws {
        try await withApp(seedDemo: false) { client in
            let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"Fall","divisions":["MPO","Rec"]}"#))
            let night = try #require(
                try LeagueAPITests.object(
                    await client.postJSON("/api/v1/events", #"{"name":"Week 1","divisions":["MPO","Rec"],"seasonID":"\#(season["id"] ?? "")"}"#))[
                        "id"]
                    as? String)
            let athlete = client.as(.athlete)
            let me = client.users.athlete.playerID.uuidString.lowercased()
            _ = try LeagueAPITests.object(await athlete.postJSON("/api/v1/events/\(night)/checkins", #"{"playerID":"\#(me)","division":"MPO"}"#))
            _ = try LeagueAPITests.object(await athlete.postJSON("/api/v1/events/\(night)/checkins", #"{"playerID":"\#(me)","division":"Rec"}"#), .ok)
            let course = try LeagueAPITests.object(await client.postJSON("/api/v1/courses", #"{"name":"One","holes":[{"number":1,"par":3}]}"#))
            _ = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/rounds",
                    #"{"courseID":"\#(course["id"] ?? "")","eventID":"\#(night)","start":true,"players":[{"playerID":"\#(me)","division":"Rec"}]}"#))
            let late = try await athlete.postJSON("/api/v1/events/\(night)/checkins", #"{"playerID":"\#(me)","division":"MPO"}"#)
            #expect(late.status == .conflict && late.text.contains("The night has started: ask a coach to change your division."))
            let listed = try #require(try await client.get("/api/v1/events/\(night)/checkins").json()["checkins"] as? [[String: Any]])
            #expect(listed.first?["division"] as? String == "Rec")
            #expect(try await athlete.get("/events/\(night)").text.contains("Change my division") == false)
            // A coach still can.
            _ = try LeagueAPITests.object(await client.postJSON("/api/v1/events/\(night)/checkins", #"{"playerID":"\#(me)","division":"MPO"}"#), .ok)
        }
    }
}
