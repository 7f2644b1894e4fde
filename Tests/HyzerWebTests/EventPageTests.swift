import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// The event pages as a coach uses them: a new event with divisions, a round in it (every
/// player needs a division), cards planned from the round page, the event's standings, a
/// tie for first decided by the playoff form.
@Suite struct EventPageTests {
    @Test func aCoachRunsAnEventFromThePages() async throws {
        try await withApp(seedDemo: false) { client in
            // The form refuses a division twice and keeps what was typed.
            let refused = try await client.postForm("/events", [("name", "Summer <b>Open</b>"), ("divisions", "MPO, FPO, mpo")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("listed twice") && refused.text.contains("Summer &lt;b&gt;Open&lt;/b&gt;"))
            let created = try await client.postForm("/events", [("name", "Summer <b>Open</b>"), ("divisions", "MPO, FPO")])
            #expect(created.status == .seeOther)
            let eventPath = try #require(created.headers[.location])
            let eventID = String(eventPath.dropFirst("/events/".count))

            let course = try LeagueAPITests.object(
                await client.postJSON("/api/v1/courses", #"{"name":"Two","holes":[{"number":1,"par":3},{"number":2,"par":3}]}"#))
            let courseID = try #require(course["id"] as? String)
            var ids: [String] = []
            for handle in ["ann", "ben", "cleo"] {
                ids.append(
                    try #require(
                        try LeagueAPITests.object(
                            await client.postJSON("/api/v1/players", "{\"displayName\":\"\(handle.capitalized)\",\"handle\":\"\(handle)\"}"))["id"]
                            as? String))
            }
            // The new-round page opened from the event offers its divisions per player.
            let form = try await client.get("/rounds/new?eventID=\(eventID)").text
            #expect(form.contains("name=\"divisions[\(ids[0])]\"") && form.contains("<option value=\"FPO\">FPO</option>"))
            var fields = [("courseID", courseID), ("eventID", eventID), ("name", "Round 1"), ("startNow", "1")] + ids.map { ("playerIDs[]", $0) }
            let missing = try await client.postForm("/rounds", fields)
            #expect(missing.status == .unprocessableContent)
            #expect(missing.text.contains("Choose a division for every player"))
            fields += [("divisions[\(ids[0])]", "MPO"), ("divisions[\(ids[1])]", "MPO"), ("divisions[\(ids[2])]", "FPO")]
            let round = try await client.postForm("/rounds", fields)
            #expect(round.status == .seeOther)
            let roundID = try #require(round.headers[.location]).split(separator: "/").last.map(String.init) ?? ""

            // Cards from the round page: one per division.
            #expect(try await client.postForm("/rounds/\(roundID)/cards/plan", [("shotgun", "1")]).status == .seeOther)
            let cards = try #require(try await client.get("/api/v1/rounds/\(roundID)/cards").json()["cards"] as? [[String: Any]])
            #expect(cards.map { ($0["playerIDs"] as? [String])?.count } == [2, 1])
            let page = try await client.get("/rounds/\(roundID)").text
            #expect(
                page.contains("/rounds/\(roundID)/cards/\(cards[0]["id"] as? String ?? "")")
                    && page.contains("Part of <a href=\"/events/\(eventID)\">"))

            // By hand: Cleo joins Ann's card, Ben gets his own, starting on hole 2; the card
            // that keeps its number keeps its id (and its page on the phones).
            let editor = try await client.get("/rounds/\(roundID)/cards/edit").text
            #expect(editor.contains("name=\"card[\(ids[2])]\""))
            let badStart = try await client.postForm("/rounds/\(roundID)/cards/edit", [("card[\(ids[0])]", "1"), ("start[card-1]", "9")])
            #expect(badStart.status == .unprocessableContent && badStart.text.contains("starts on hole 9"))
            let edited = try await client.postForm(
                "/rounds/\(roundID)/cards/edit",
                [
                    ("card[\(ids[0])]", "1"), ("card[\(ids[2])]", "1"), ("card[\(ids[1])]", "2"), ("start[card-1]", "1"), ("start[card-2]", "2"),
                ])
            #expect(edited.status == .seeOther)
            let byHand = try #require(try await client.get("/api/v1/rounds/\(roundID)/cards").json()["cards"] as? [[String: Any]])
            #expect(byHand.map { $0["playerIDs"] as? [String] } == [[ids[0], ids[2]], [ids[1]]])
            #expect(byHand.map { $0["startingHole"] as? Int } == [1, 2])
            #expect(byHand.first?["id"] as? String == cards.first?["id"] as? String)

            // Ann and Ben tie for first in MPO; the round is completed: a playoff to decide.
            for (index, strokes) in [(0, [3, 3]), (1, [2, 4]), (2, [3, 4])] {
                for (hole, value) in strokes.enumerated() {
                    _ = try LeagueAPITests.object(
                        await client.postJSON(
                            "/api/v1/rounds/\(roundID)/scores", "{\"playerID\":\"\(ids[index])\",\"hole\":\(hole + 1),\"strokes\":\(value)}"))
                }
            }
            let early = try await client.postForm("/events/\(eventID)/playoff", [("division", "MPO"), ("winner", ids[1])])
            #expect(early.status == .conflict)
            #expect(try await client.postForm("/rounds/\(roundID)/complete", [("confirm", "yes")]).status == .seeOther)
            let tied = try await client.get(eventPath).text
            #expect(tied.contains("Tied for first") && tied.contains("Record the playoff"))
            #expect(tied.contains("Summer &lt;b&gt;Open&lt;/b&gt;"))
            #expect(
                try await client.postForm("/events/\(eventID)/playoff", [("division", "MPO"), ("winner", ids[2])]).status == .unprocessableContent)
            #expect(try await client.postForm("/events/\(eventID)/playoff", [("division", "MPO"), ("winner", ids[1])]).status == .seeOther)

            let standings = try await client.get("/api/v1/events/\(eventID)/standings").json()
            let mpo = try #require((standings["divisions"] as? [[String: Any]])?.first?["standings"] as? [[String: Any]])
            #expect(mpo.map { "\($0["displayName"] ?? "") \($0["position"] ?? "") \($0["playoff"] ?? "")" } == ["Ben 1 won", "Ann 2 lost"])
            let decided = try await client.get(eventPath).text
            #expect(decided.contains("Won playoff") && !decided.contains("Record the playoff"))
            let csv = try await client.get("/events/\(eventID)/results.csv").text
            #expect(csv.contains("1,Ben,ben,MPO,6,6,E,won"))
        }
    }
}
