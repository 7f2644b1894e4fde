import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Twenty players onboarded in minutes (#37, item 4): invite links made for many imported
/// players at once (a sheet with a QR code each, and the links to copy), a claim that lands on
/// the night's check-in, and "is this you?" before an open sign-up duplicates an imported player.
@Suite struct OnboardingTests {
    static func links(_ page: String) -> [String] {
        page.matches(of: /<p class="invite-link">(http[^<]+)<\/p>/).map { String($0.output.1) }
    }

    @Test func aCoachMakesASheetOfInvitesAndEachClaimsItsPlayer() async throws {
        try await withApp(seedDemo: false) { client in
            let sheet = "name,handle\nAnn Lee,ann.lee\nBen Ortiz,ben\nCy Young,cy\n"
            _ = try LeagueAPITests.object(try await CSVTests.postCSV(client, "/api/v1/players/import", sheet))
            let players = try await client.get("/api/v1/players").json()["players"] as? [[String: Any]] ?? []
            func id(_ handle: String) throws -> String { try #require(players.first { $0["handle"] as? String == handle }?["id"] as? String) }

            let page = try await client.get("/invites").text
            let cy = try id("cy")
            #expect(page.contains(#"<input type="checkbox" name="players[\#(cy)]" value="on" checked>"#), "every unclaimed player ticked")
            let made = try await client.postForm("/invites/bulk", [("players[\(try id("ann.lee"))]", "on"), ("players[\(try id("ben"))]", "on")])
            #expect(made.status == .created)
            #expect(made.text.components(separatedBy: #"<li class="invite-card">"#).count == 3 && made.text.contains("<svg"))
            let links = Self.links(made.text)
            #expect(links.count == 2)
            #expect(made.text.contains("Ann Lee: \(links[0])") && made.text.contains("Ben Ortiz: \(links[1])"), "the lines to copy")

            // Ann claims hers: she lands on her own page, not the director's set-up home.
            let token = try #require(links[0].split(separator: "invite=").last.map(String.init))
            let claimed = try await client.as(.anonymous).postForm("/join", [("invite", token), ("password", "ann password 123")])
            let ann = try id("ann.lee")
            #expect(claimed.status == .seeOther && claimed.headers[.location] == "/players/\(ann)")
            // Her link worked once; she cannot be invited again.
            #expect(try await client.as(.anonymous).get("/join?invite=\(token)").status == .forbidden)
            #expect(try await client.postForm("/invites/bulk", [("players[\(ann)]", "on")]).status == .unprocessableContent)
            #expect(try await client.as(.athlete).postForm("/invites/bulk", [("players[\(cy)]", "on")]).status == .forbidden)
        }
    }

    @Test func aClaimOnANightLandsOnItsCheckIn() async throws {
        try await withApp(seedDemo: false) { client in
            let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"League","divisions":["MPO"]}"#))
            let night = try LeagueAPITests.object(
                await client.postJSON("/api/v1/events", #"{"name":"Week 1","divisions":["MPO"],"seasonID":"\#(season["id"] ?? "")"}"#))
            let eventID = try #require(night["id"] as? String)
            #expect(try await client.postJSON("/api/v1/events/\(eventID)", #"{"checkInOpen":true}"#, method: .patch).status == .ok)
            #expect(try await client.as(.anonymous).get("/events/\(eventID)").text.contains("No account yet? Open the invite link"))
            let player = try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"Dee Evans","handle":"dee"}"#))
            let made = try await client.postForm("/invites/bulk", [("players[\(player["id"] ?? "")]", "on")])
            let token = try #require(Self.links(made.text).first?.split(separator: "invite=").last.map(String.init))
            let claimed = try await client.as(.anonymous).postForm("/join", [("invite", token), ("password", "dee password 123")])
            #expect(claimed.headers[.location] == "/events/\(eventID)#check-in-heading")
        }
    }

    @Test func anOpenSignUpWithAnImportedNameIsAskedIsThisYou() async throws {
        try await withApp(seedDemo: false) { client in
            let fields = [("clubName", "Pine Loop DGC"), ("tvPageSeconds", "10"), ("publicLeaderboards", "1"), ("openSignUp", "1")]
            #expect(try await client.as(.admin).postForm("/admin/settings", fields).status == .seeOther)
            _ = try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"Ann Lee","handle":"ann.lee"}"#))
            let before = (try await client.get("/api/v1/players").json()["players"] as? [Any])?.count
            let signUp = [("displayName", "ann  LEE"), ("handle", "annie"), ("password", "annie password 1")]
            let asked = try await client.as(.anonymous).postForm("/join", signUp)
            #expect(
                asked.status == .conflict && asked.text.contains("Is this you?")
                    && asked.text.contains("The club already lists <strong>Ann Lee</strong>"))
            #expect((try await client.get("/api/v1/players").json()["players"] as? [Any])?.count == before, "nobody made yet")
            let anyway = try await client.as(.anonymous).postForm("/join", signUp + [("notMe", "1")])
            #expect(anyway.status == .seeOther)
            #expect((try await client.get("/api/v1/players").json()["players"] as? [Any])?.count == (before ?? 0) + 1)
        }
    }
}
