import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import HyzerWeb

/// Check-in for a league night: players check themselves in, coaches check in anyone, add
/// walk-ups and record fees; a walk-up plays like anyone and keeps their scores when an invite
/// attaches an account to them.
@Suite struct CheckInAPITests {
    @Test func playersCheckThemselvesInAndCoachesEveryoneElse() async throws {
        try await withApp(seedDemo: false) { client in
            let event = try LeagueAPITests.object(await client.postJSON("/api/v1/events", #"{"name":"Week 1","divisions":["MPO","FPO"]}"#))
            let eventID = try #require(event["id"] as? String)
            let path = "/api/v1/events/\(eventID)/checkins"
            let athlete = client.as(.athlete)
            let me = client.users.athlete.playerID.uuidString.lowercased()

            let mine = try await athlete.postJSON(path, #"{"playerID":"\#(me)","division":"fpo"}"#)
            #expect(mine.status == .created, "\(mine.text)")
            let mineBody = try mine.json()
            #expect(mineBody["division"] as? String == "FPO" && mineBody["paid"] as? Bool == false)
            #expect(try await athlete.postJSON(path, #"{"playerID":"\#(me)"}"#).status == .ok, "again: the same check-in, its division kept")
            #expect(try await athlete.postJSON(path, #"{"playerID":"\#(me)","paid":true}"#).status == .forbidden, "fees are a coach's")
            let coachID = client.users.coach.playerID.uuidString.lowercased()
            #expect(try await athlete.postJSON(path, #"{"playerID":"\#(coachID)","division":"MPO"}"#).status == .forbidden)
            #expect(try await athlete.postJSON(path, #"{"walkUp":{"displayName":"Sneaky"},"division":"MPO"}"#).status == .forbidden)
            #expect(try await client.as(.anonymous).postJSON(path, #"{"playerID":"\#(me)"}"#).status == .unauthorized)

            // Coaches: anyone, walk-ups, fees.
            let paid = try await client.postJSON(path, #"{"playerID":"\#(me)","paid":true}"#)
            let paidBody = try paid.json()
            #expect(paid.status == .ok && paidBody["paid"] as? Bool == true && paidBody["division"] as? String == "FPO")
            let walkUp = try await client.postJSON(path, #"{"walkUp":{"displayName":"Wally Walker"},"division":"MPO","paid":true}"#)
            #expect(walkUp.status == .created, "\(walkUp.text)")
            #expect(try walkUp.json()["handle"] as? String == "wally.walker")
            let second = try await client.postJSON(path, #"{"walkUp":{"displayName":"Wally Walker"},"division":"MPO"}"#)
            #expect(try second.json()["handle"] as? String == "wally.walker.2", "a second Wally gets a handle of his own")

            for (body, field) in [
                (#"{"playerID":"\#(coachID)"}"#, "division"), (#"{"playerID":"\#(coachID)","division":"MA9"}"#, "division"),
                (#"{}"#, "playerID"), (#"{"playerID":"\#(coachID)","walkUp":{"displayName":"X"},"division":"MPO"}"#, "playerID"),
                (#"{"walkUp":{"displayName":""},"division":"MPO"}"#, "walkUp.displayName"), (#"{"playerID":"nope","division":"MPO"}"#, "playerID"),
            ] {
                let refused = try await client.postJSON(path, body)
                #expect(refused.status == .unprocessableContent, "\(body): \(refused.text)")
                #expect(refused.text.contains(#""field":"\#(field)""#), "\(body): \(refused.text)")
            }
            #expect(try await client.postJSON("/api/v1/events/\(UUID())/checkins", #"{"playerID":"\#(me)"}"#).status == .notFound)

            let list = try LeagueAPITests.object(await client.get(path), .ok)
            let rows = try #require(list["checkins"] as? [[String: Any]])
            #expect(rows.map { $0["displayName"] as? String } == ["Abe.Athlete", "Wally Walker", "Wally Walker"])
            #expect(list["paid"] as? Int == 2)
            let players = try #require(try await client.get("/api/v1/players").json()["players"] as? [[String: Any]])
            #expect(players.contains { $0["handle"] as? String == "wally.walker" })
        }
    }

    @Test func aWalkUpPlaysAndKeepsTheirScoresWhenAnInviteGivesThemAnAccount() async throws {
        try await withApp(seedDemo: false) { client in
            let event = try LeagueAPITests.object(await client.postJSON("/api/v1/events", #"{"name":"Week 1"}"#))
            let eventID = try #require(event["id"] as? String)
            let walkUp = try LeagueAPITests.object(
                await client.postJSON("/api/v1/events/\(eventID)/checkins", #"{"walkUp":{"displayName":"Wally Walker","handle":"wally"}}"#))
            let wally = try #require(walkUp["playerID"] as? String)
            let course = try LeagueAPITests.object(await client.postJSON("/api/v1/courses", #"{"name":"One","holes":[{"number":1,"par":3}]}"#))
            let round = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/rounds",
                    #"{"courseID":"\#(course["id"] ?? "")","eventID":"\#(eventID)","start":true,"players":[{"playerID":"\#(wally)"}]}"#))
            let roundID = try #require(round["id"] as? String)
            _ = try LeagueAPITests.object(
                await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(wally)","hole":1,"strokes":2}"#))

            // An invite attaches an account to the walk-up: he signs in and his birdie is his.
            let invite = try AccountTests.inviteToken(try await client.postForm("/invites", [("role", "athlete"), ("playerID", wally)]))
            let joined = try await client.as(.anonymous).postForm("/join", [("invite", invite), ("password", "wally password 1")])
            #expect(joined.status == .seeOther, "\(joined.text)")
            let signedIn = try await AccountTests.signIn(client, TestUser(handle: "wally", password: "wally password 1", playerID: UUID(), token: ""))
            #expect(signedIn.response.status == .seeOther)
            let standings = try await client.standings(roundID)
            let row = (standings["standings"] as? [[String: Any]])?.first
            #expect(row?["playerID"] as? String == wally && row?["toPar"] as? Int == -1)
        }
    }
}

/// The check-in section of a league night's page: the list, the fee count, and the forms.
@Suite struct CheckInPageTests {
    @Test func aLeagueNightsPageChecksInPlayersAndWalkUps() async throws {
        try await withApp(seedDemo: false) { client in
            let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"Summer","divisions":["MPO","FPO"]}"#))
            let event = try LeagueAPITests.object(
                await client.postJSON("/api/v1/events", #"{"name":"Week 1","divisions":["MPO","FPO"],"seasonID":"\#(season["id"] ?? "")"}"#))
            let eventID = try #require(event["id"] as? String)
            let athlete = client.as(.athlete)
            let page = try await athlete.get("/events/\(eventID)").text
            #expect(page.contains("Check me in") && page.contains("0 checked in"))
            #expect(!page.contains("Add the walk-up"), "walk-ups are a coach's")
            let me = client.users.athlete.playerID.uuidString.lowercased()
            let checkedIn = try await athlete.postForm("/events/\(eventID)/checkins", [("playerID", me), ("division", "FPO")])
            #expect(checkedIn.status == .seeOther)
            // They are told so on the page they land on.
            let landing = try #require(checkedIn.headers[.location])
            #expect(landing.contains("notice=checked-in"))
            #expect(try await athlete.get(landing).text.contains("You&#39;re checked in. See you on the first tee."))
            // The address alone says nothing: not to a stranger, nor to a player not on the list.
            #expect(try await client.as(.anonymous).get(landing).text.contains("checked in. See you") == false)
            #expect(try await client.as(.coach).get(landing).text.contains("checked in. See you") == false)
            // A player cannot check another in from the page either.
            let coachID = client.users.coach.playerID.uuidString.lowercased()
            let other = try await athlete.postForm("/events/\(eventID)/checkins", [("playerID", coachID), ("division", "MPO")])
            #expect(other.status == .forbidden && other.text.contains("Players check themselves in"))

            let walkUp = try await client.postForm(
                "/events/\(eventID)/checkins", [("walkUpName", "Wally <b>Walker</b>"), ("division", "MPO"), ("walkUpPaid", "on")])
            #expect(walkUp.status == .seeOther)
            let coachPage = try await client.get("/events/\(eventID)").text
            #expect(coachPage.contains("2 checked in · 1 paid the entry fee"))
            #expect(coachPage.contains("Wally &lt;b&gt;Walker&lt;/b&gt;") && !coachPage.contains("<b>Walker</b>"))
            #expect(coachPage.contains("Add the walk-up"))
            // "Start a round with those checked in": the new-round form has them chosen, in their divisions.
            #expect(coachPage.contains("/rounds/new?eventID=\(eventID)"))
            let form = try await client.get("/rounds/new?eventID=\(eventID)").text
            #expect(form.contains(#"value="\#(me)" checked"#))
            let mine = try #require(
                form.components(separatedBy: #"name="divisions[\#(me)]""#).dropFirst().first?.components(separatedBy: "</select>").first)
            #expect(mine.contains(#"<option value="FPO" selected>"#))
            #expect(!form.contains(#"value="\#(coachID)" checked"#))
            let nameless = try await client.postForm("/events/\(eventID)/checkins", [("division", "MPO")])
            #expect(nameless.status == .unprocessableContent && nameless.text.contains("Choose a player, or name the walk-up."))
        }
    }
}
