import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// A coach checks in many players at once (#37, item 5): a division is asked for only where it
/// is not known, a refusal checks in nobody and keeps the ticks, and a player's own check-in
/// starts at their division, never at the night's first one.
@Suite struct CheckInManyTests {
    @Test func ticksCheckInEveryoneAndAskOnlyForUnknownDivisions() async throws {
        try await withApp(seedDemo: false) { client in
            let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"League","divisions":["MPO","FPO"]}"#))
            let seasonID = try #require(season["id"] as? String)
            func night(_ name: String) async throws -> String {
                let event = try LeagueAPITests.object(
                    await client.postJSON("/api/v1/events", #"{"name":"\#(name)","divisions":["MPO","FPO"],"seasonID":"\#(seasonID)"}"#))
                return try #require(event["id"] as? String)
            }
            func player(_ name: String, _ handle: String) async throws -> String {
                try #require(
                    try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"\#(name)","handle":"\#(handle)"}"#))["id"]
                        as? String)
            }
            let usual = try await player("Una Usual", "una")
            #expect(try await client.postJSON("/api/v1/players/\(usual)", #"{"division":"FPO"}"#, method: .patch).status == .ok)
            let regular = try await player("Reg Regular", "reg")
            let newcomer = try await player("Nina New", "nina")
            let first = try await night("Week 1")
            _ = try LeagueAPITests.object(await client.postJSON("/api/v1/events/\(first)/checkins", #"{"playerID":"\#(regular)","division":"MPO"}"#))
            let tonight = try await night("Week 2")

            let page = try await client.get("/events/\(tonight)").text
            #expect(page.contains(#"<form method="post" action="/events/\#(tonight)/checkins/many""#))
            #expect(!page.contains("division[\(usual)]") && !page.contains("division[\(regular)]"), "known: not asked")
            #expect(page.contains(#"<select name="division[\#(newcomer)]" aria-label="Division for Nina New">"#), "unknown: asked")

            // The newcomer's division left out: nobody is checked in, the ticks come back.
            let ticks = [usual, regular, newcomer].map { ("chosen[\($0)]", "on") } + [("paid[\(usual)]", "on")]
            let refused = try await client.postForm("/events/\(tonight)/checkins/many", ticks + [("division[\(newcomer)]", "")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Choose a division for Nina New"), "\(refused.text)")
            #expect(
                refused.text.contains(#"name="chosen[\#(usual)]" value="on" checked"#)
                    && refused.text.contains(#"name="paid[\#(usual)]" value="on" checked"#))
            let none = try await client.get("/api/v1/events/\(tonight)/checkins").json()["checkins"] as? [[String: Any]]
            #expect(none?.isEmpty == true, "nothing half-written")

            let accepted = try await client.postForm("/events/\(tonight)/checkins/many", ticks + [("division[\(newcomer)]", "FPO")])
            #expect(accepted.status == .seeOther)
            let listed = try await client.get("/api/v1/events/\(tonight)/checkins").json()["checkins"] as? [[String: Any]] ?? []
            let byID = Dictionary(uniqueKeysWithValues: listed.compactMap { row in (row["playerID"] as? String).map { ($0, row) } })
            #expect(byID[usual]?["division"] as? String == "FPO" && byID[usual]?["paid"] as? Bool == true)
            #expect(byID[regular]?["division"] as? String == "MPO" && byID[regular]?["paid"] as? Bool == false, "last night's division")
            #expect(byID[newcomer]?["division"] as? String == "FPO")
        }
    }

    @Test func aPlayersOwnCheckInStartsAtTheirDivisionOrAsks() async throws {
        try await withApp(seedDemo: false) { client in
            let event = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"League","divisions":["MPO","FPO"]}"#))
            let night = try LeagueAPITests.object(
                await client.postJSON("/api/v1/events", #"{"name":"Week 1","divisions":["MPO","FPO"],"seasonID":"\#(event["id"] ?? "")"}"#))
            let nightID = try #require(night["id"] as? String)
            let athlete = client.users.athlete.playerID.uuidString.lowercased()
            // Not known yet: asked, nothing assumed.
            let unknown = try await client.as(.athlete).get("/events/\(nightID)").text
            #expect(unknown.contains(#"<select name="division" required><option value="" selected>Choose your division</option>"#), "\(unknown)")
            // Known (a Women player): her division, not the night's first.
            #expect(try await client.postJSON("/api/v1/players/\(athlete)", #"{"division":"FPO"}"#, method: .patch).status == .ok)
            let known = try await client.as(.athlete).get("/events/\(nightID)").text
            #expect(known.contains(#"<option value="FPO" selected>FPO</option>"#) && !known.contains("Choose your division"))
        }
    }
}
