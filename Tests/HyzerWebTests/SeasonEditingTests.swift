import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import HyzerWeb

/// What a director fixes during a season: the season's rules and name, a night added from the
/// season page, removing a season, and check-ins undone, moved and paid later.
@Suite struct SeasonEditingTests {
    /// A 1-hole night of `season` with `strokes` per player, completed; returns its event id.
    static func night(
        _ client: Client, season: String, name: String, course: String, _ strokes: [(String, String, Int)], complete: Bool = true
    ) async throws -> String {
        let event = try LeagueAPITests.object(
            await client.postJSON("/api/v1/events", #"{"name":"\#(name)","divisions":["MPO","FPO"],"seasonID":"\#(season)"}"#))
        let eventID = try #require(event["id"] as? String)
        let entries = strokes.map { #"{"playerID":"\#($0.0)","division":"\#($0.1)"}"# }.joined(separator: ",")
        let round = try LeagueAPITests.object(
            await client.postJSON(
                "/api/v1/rounds", #"{"courseID":"\#(course)","eventID":"\#(eventID)","start":true,"players":[\#(entries)]}"#))
        let roundID = try #require(round["id"] as? String)
        for (player, _, count) in strokes {
            _ = try LeagueAPITests.object(
                await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(player)","hole":1,"strokes":\#(count)}"#))
        }
        if complete { #expect(try await client.postJSON("/api/v1/rounds/\(roundID)/complete", "{}").status == .ok) }
        return eventID
    }

    static func points(_ table: [String: Any], _ player: String) -> Int? {
        (table["divisions"] as? [[String: Any]])?.flatMap { ($0["standings"] as? [[String: Any]]) ?? [] }
            .first { $0["playerID"] as? String == player }?["points"] as? Int
    }

    @Test func aSeasonIsEditedAndRemovedAndItsRemovedNightsStayInTheTable() async throws {
        try await withApp(seedDemo: false) { client in
            let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"Sumer","divisions":["MPO","FPO"]}"#))
            let seasonID = try #require(season["id"] as? String)
            let course = try #require(
                try LeagueAPITests.object(await client.postJSON("/api/v1/courses", #"{"name":"One","holes":[{"number":1,"par":3}]}"#))["id"]
                    as? String)
            let me = client.users.coach.playerID.uuidString.lowercased()
            let athlete = client.users.athlete.playerID.uuidString.lowercased()
            let first = try await Self.night(client, season: seasonID, name: "Week 1", course: course, [(me, "MPO", 2), (athlete, "MPO", 3)])
            #expect(Self.points(try await client.get("/api/v1/seasons/\(seasonID)/standings").json(), me) == 2, "field size: first of two")

            // The rules change: the table is computed again.
            let edited = try await client.postJSON(
                "/api/v1/seasons/\(seasonID)", #"{"name":"Summer","points":{"rule":"table","table":[10,5]}}"#, method: .patch)
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(try edited.json()["name"] as? String == "Summer")
            #expect(Self.points(try await client.get("/api/v1/seasons/\(seasonID)/standings").json(), me) == 10)
            for body in [#"{}"#, #"{"handicap":{}}"#, #"{"handicap":{"method":"elo"}}"#, #"{"points":{"rule":"fieldSize"},"name":""}"#] {
                let refused = try await client.postJSON("/api/v1/seasons/\(seasonID)", body, method: .patch)
                #expect(refused.status == .unprocessableContent, "\(body): \(refused.text)")
            }
            #expect(try await client.as(.athlete).postJSON("/api/v1/seasons/\(seasonID)", #"{"name":"Mine"}"#, method: .patch).status == .forbidden)

            // The page's form, filled in with the season as it is.
            let form = try await client.get("/seasons/\(seasonID)/edit").text
            #expect(form.contains(#"value="Summer""#) && form.contains(#"value="10, 5""#) && form.contains(#"action="/seasons/\#(seasonID)""#))
            let saved = try await client.postForm(
                "/seasons/\(seasonID)", [("name", "Summer league"), ("divisions", "MPO, FPO"), ("rule", "table"), ("table", "10, 5")])
            #expect(saved.status == .seeOther && saved.headers[.location] == "/seasons/\(seasonID)?notice=saved")
            let refusedForm = try await client.postForm("/seasons/\(seasonID)", [("name", ""), ("rule", "table"), ("table", "10, 5")])
            #expect(refusedForm.status == .unprocessableContent && refusedForm.text.contains("field-error"))

            // "Add a league night" on the season page makes a night of the season.
            let newNight = try await client.get("/events/new?seasonID=\(seasonID)").text
            #expect(newNight.contains(#"<option value="\#(seasonID)" selected>Summer league</option>"#))
            let made = try await client.postForm("/events", [("name", "Week 2"), ("divisions", "MPO, FPO"), ("seasonID", seasonID)])
            let madeID = try #require(made.headers[.location]?.components(separatedBy: "/").last)
            #expect(try await client.get("/api/v1/events/\(madeID)").json()["seasonID"] as? String == seasonID)

            // A played night removed is archived, and its points stay in the table.
            let removedNight = try await client.execute(uri: "/api/v1/events/\(first)", method: .delete)
            #expect(removedNight.status == .ok)
            #expect(Self.points(try await client.get("/api/v1/seasons/\(seasonID)/standings").json(), me) == 10)

            // A season with nights is archived: off the list, its table still readable.
            let removed = try await client.execute(uri: "/api/v1/seasons/\(seasonID)", method: .delete)
            #expect(removed.status == .ok && removed.text.contains(#""archived":true"#))
            #expect((try await client.get("/api/v1/seasons").json()["seasons"] as? [Any])?.isEmpty == true)
            #expect(try await client.get("/seasons/\(seasonID)").text.contains("This season is removed"))
            #expect(try await client.get("/seasons/\(seasonID)/edit").status == .notFound)
            // One without nights is deleted.
            let empty = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"Typo"}"#))
            let emptyID = try #require(empty["id"] as? String)
            #expect(try await client.postForm("/seasons/\(emptyID)/remove", [("confirm", "yes")]).status == .seeOther)
            #expect(try await client.get("/api/v1/seasons/\(emptyID)").status == .notFound)
        }
    }

    @Test func checkInsAreUndoneMovedAndPaidByTheRules() async throws {
        try await withApp(seedDemo: false) { client in
            let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"Summer","divisions":["MPO","FPO"]}"#))
            let seasonID = try #require(season["id"] as? String)
            let course = try #require(
                try LeagueAPITests.object(await client.postJSON("/api/v1/courses", #"{"name":"One","holes":[{"number":1,"par":3}]}"#))["id"]
                    as? String)
            let me = client.users.athlete.playerID.uuidString.lowercased()
            let coachID = client.users.coach.playerID.uuidString.lowercased()
            let athlete = client.as(.athlete)
            let event = try LeagueAPITests.object(
                await client.postJSON("/api/v1/events", #"{"name":"Week 1","divisions":["MPO","FPO"],"seasonID":"\#(seasonID)"}"#))
            let eventID = try #require(event["id"] as? String)
            let path = "/api/v1/events/\(eventID)/checkins"

            // A coach checked the athlete in to FPO: the athlete cannot move themselves.
            #expect(try await client.postJSON(path, #"{"playerID":"\#(me)","division":"FPO"}"#).status == .created)
            let moved = try await athlete.postJSON(path, #"{"playerID":"\#(me)","division":"MPO"}"#)
            #expect(moved.status == .forbidden && moved.text.contains("A coach checked you in to FPO"))
            #expect(try await athlete.postJSON(path, #"{"playerID":"\#(me)","division":"FPO"}"#).status == .ok, "the same division is fine")

            // Undo: a player their own before the night starts; a coach anyone.
            #expect(try await client.postJSON(path, #"{"playerID":"\#(coachID)","division":"MPO"}"#).status == .created)
            #expect(try await athlete.execute(uri: "\(path)/\(coachID)", method: .delete).status == .forbidden)
            #expect(try await client.execute(uri: "\(path)/\(coachID)", method: .delete).status == .noContent)
            #expect(try await athlete.execute(uri: "\(path)/\(me)", method: .delete).status == .noContent)
            #expect((try await client.get(path).json()["checkins"] as? [Any])?.isEmpty == true)
            #expect(try await athlete.execute(uri: "\(path)/\(me)", method: .delete).status == .notFound, "already undone")
            let again = try await athlete.postJSON(path, #"{"playerID":"\#(me)","division":"FPO"}"#)
            #expect(again.status == .created, "checked in again after an undo")

            // The coach marks the fee later from the list, and takes a player off from the page.
            #expect(try await client.postForm("/events/\(eventID)/checkins", [("playerID", me), ("paid", "on")]).status == .seeOther)
            let page = try await client.get("/events/\(eventID)").text
            #expect(page.contains("1 checked in · 1 paid") && page.contains("Mark not paid") && page.contains("@abe.athlete"))
            #expect(page.contains("Fee log") && page.contains("Abe.Athlete paid"))
            let ledger = try await client.get("/api/v1/events/\(eventID)/fees").json()
            let payments = try #require(ledger["payments"] as? [[String: Any]])
            #expect(payments.count == 1 && payments[0]["paid"] as? Bool == true && payments[0]["recordedBy"] as? String == coachID)
            #expect(try await athlete.get("/api/v1/events/\(eventID)/fees").status == .forbidden, "the money is a coach's business")
            #expect(try await client.postForm("/events/\(eventID)/checkins/\(me)/cancel", []).status == .seeOther)
            #expect(try await client.get("/events/\(eventID)").text.contains("0 checked in"))
            #expect(try await client.postJSON(path, #"{"playerID":"\#(me)","division":"FPO"}"#).status == .created)

            // Once the night is over the player can no longer check in or open it; a coach still settles fees.
            let round = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/rounds",
                    #"{"courseID":"\#(course)","eventID":"\#(eventID)","start":true,"players":[{"playerID":"\#(me)","division":"FPO"}]}"#))
            let roundID = try #require(round["id"] as? String)
            #expect(try await athlete.execute(uri: "\(path)/\(me)", method: .delete).status == .conflict, "the night has started")
            #expect(try await client.postJSON("/api/v1/rounds/\(roundID)/complete", "{}").status == .ok)
            let late = try await athlete.postJSON(path, #"{"playerID":"\#(me)","division":"FPO"}"#)
            #expect(late.status == .conflict && late.text.contains("is over"))
            #expect(try await client.postJSON(path, #"{"playerID":"\#(me)","paid":false}"#).status == .ok)
            #expect(try await client.postJSON("/api/v1/events/\(eventID)", #"{"checkInOpen":true}"#, method: .patch).status == .conflict)
            #expect(try await !client.get("/events/\(eventID)").text.contains("Add the walk-up"))

            // Next week, the athlete's division is the one they played in this season.
            let next = try LeagueAPITests.object(
                await client.postJSON("/api/v1/events", #"{"name":"Week 2","divisions":["MPO","FPO"],"seasonID":"\#(seasonID)"}"#))
            let nextID = try #require(next["id"] as? String)
            let returning = try await athlete.postJSON("/api/v1/events/\(nextID)/checkins", #"{"playerID":"\#(me)"}"#)
            let returned = try returning.json()
            #expect(returning.status == .created && returned["division"] as? String == "FPO")
        }
    }

    @Test func aSeasonThatLeavesPlayersWithoutAHandicapUnplacedSaysSoOnEveryBoard() async throws {
        try await withApp(seedDemo: false) { client in
            let season = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/seasons",
                    #"{"name":"Net","divisions":["MPO","FPO"],"placesBy":"net","handicap":{"method":"percentage","minimumRounds":1,"unhandicapped":"unplaced"}}"#
                ))
            let seasonID = try #require(season["id"] as? String)
            #expect((season["handicap"] as? [String: Any])?["unhandicapped"] as? String == "unplaced")
            let course = try #require(
                try LeagueAPITests.object(await client.postJSON("/api/v1/courses", #"{"name":"One","holes":[{"number":1,"par":3}]}"#))["id"]
                    as? String)
            let me = client.users.coach.playerID.uuidString.lowercased()
            let athlete = client.users.athlete.playerID.uuidString.lowercased()
            _ = try await Self.night(client, season: seasonID, name: "Week 1", course: course, [(me, "MPO", 4)])
            // Week 2: the coach has a handicap (+1 on one hole: 18.0, 1 throw here), the athlete none.
            let second = try await Self.night(
                client, season: seasonID, name: "Week 2", course: course, [(me, "MPO", 4), (athlete, "MPO", 2)], complete: false)
            let rounds = try #require(try await client.get("/api/v1/events/\(second)").json()["rounds"] as? [[String: Any]])
            let roundID = try #require(rounds.first?["id"] as? String)
            let entries = try #require(try await client.get("/api/v1/rounds/\(roundID)/standings").json()["standings"] as? [[String: Any]])
            let mine = try #require(entries.first { $0["playerID"] as? String == me })
            let theirs = try #require(entries.first { $0["playerID"] as? String == athlete })
            #expect(mine["handicap"] as? Int == 1 && mine["netPosition"] as? String == "1")
            #expect(theirs["handicap"] == nil && theirs["netPosition"] as? String == "–", "no handicap yet: no net place")
            let night = try await client.get("/api/v1/events/\(second)/standings").json()
            let rows = try #require((night["divisions"] as? [[String: Any]])?.first?["standings"] as? [[String: Any]])
            #expect(rows.first { $0["playerID"] as? String == athlete }?["netPosition"] == nil)
            #expect(rows.first { $0["playerID"] as? String == me }?["netPosition"] as? String == "1")
        }
    }
}
