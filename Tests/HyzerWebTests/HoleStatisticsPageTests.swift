import Foundation
import HyzerCore
import Testing

@testable import HyzerWeb

/// Hole statistics where people read them: the round page, the event page, the layout's own
/// page and the TV's "tonight's hardest holes", each following the scores as they change.
@Suite struct HoleStatisticsPageTests {
    /// The rows of the first hole-statistics table in `html`: hole → (average, rank).
    static func rows(_ html: String) -> [(hole: Int, average: String, rank: String)] {
        guard let table = html.range(of: #"<table class="board hole-stats">"#) else { return [] }
        let body = html[table.upperBound...].prefix { _ in true }
        let end = body.range(of: "</table>")?.lowerBound ?? body.endIndex
        return body[..<end].components(separatedBy: "<tr data-hole=\"").dropFirst().compactMap { row in
            let hole = Int(row.prefix { $0.isNumber })
            let cells = row.components(separatedBy: "<td class=\"").dropFirst().map { cell in
                String(cell.split(separator: ">", maxSplits: 1).last?.prefix { $0 != "<" } ?? "")
            }
            guard let hole, cells.count >= 4 else { return nil }
            return (hole, cells[2], cells[3])
        }
    }

    @Test func theRoundTheEventTheLayoutAndTheTVShowHowEachHolePlays() async throws {
        try await withApp(seedDemo: false) { client in
            let course = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/courses", #"{"name":"Three Holes","holes":[{"number":1,"par":3},{"number":2,"par":3},{"number":3,"par":4}]}"#))
            let courseID = try #require(course["id"] as? String)
            let event = try LeagueAPITests.object(await client.postJSON("/api/v1/events", #"{"name":"League night"}"#))
            let eventID = try #require(event["id"] as? String)
            var ids: [String] = []
            for index in 0..<4 {
                let made = try LeagueAPITests.object(
                    await client.postJSON("/api/v1/players", #"{"displayName":"P\#(index)","handle":"hs\#(index)"}"#))
                ids.append(try #require(made["id"] as? String))
            }
            let entries = ids.map { #"{"playerID":"\#($0)"}"# }.joined(separator: ",")
            let round = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/rounds", #"{"courseID":"\#(courseID)","eventID":"\#(eventID)","start":true,"players":[\#(entries)]}"#))
            let roundID = try #require(round["id"] as? String)
            func score(_ player: String, _ hole: Int, _ strokes: Int, round: String = roundID) async throws {
                let posted = try await client.postJSON(
                    "/api/v1/rounds/\(round)/scores", #"{"playerID":"\#(player)","hole":\#(hole),"strokes":\#(strokes)}"#)
                #expect(posted.status == .created, "\(posted.text)")
            }
            #expect(Self.rows(try await client.get("/rounds/\(roundID)").text).isEmpty, "no section before the first score")
            // Hole 1: 2, 3, 3, 3 (−0.25). Hole 2: 4, 4, 3, 5 (+1). Hole 3: 4, 4, 4, 5 (+0.25).
            for (index, id) in ids.enumerated() {
                try await score(id, 1, index == 0 ? 2 : 3)
                try await score(id, 2, [4, 4, 3, 5][index])
                try await score(id, 3, index == 3 ? 5 : 4)
            }
            let roundRows = Self.rows(try await client.as(.anonymous).get("/rounds/\(roundID)").text)
            #expect(roundRows.map(\.hole) == [1, 2, 3])
            #expect(roundRows.map(\.average) == ["-0.25", "+1.00", "+0.25"])
            #expect(roundRows.map(\.rank) == ["3", "1", "2"])
            let eventPage = try await client.as(.anonymous).get("/events/\(eventID)").text
            #expect(eventPage.contains("Holes · Three Holes"))
            #expect(Self.rows(eventPage).map(\.average) == ["-0.25", "+1.00", "+0.25"])
            // Every name on the boards opens the player's page.
            #expect(eventPage.contains(#"<a class="player-link" href="/players/\#(ids[0])">P0</a>"#))
            #expect(try await client.as(.anonymous).get("/rounds/\(roundID)/leaderboard").text.contains(#"href="/players/\#(ids[3])""#))
            let tv = try await client.as(.anonymous).get("/tv").text
            #expect(tv.contains("Tonight's hardest holes"))
            #expect(
                Self.rows(tv[(tv.range(of: "tv-holes")?.lowerBound ?? tv.startIndex)...].description).map(\.hole) == [2, 3],
                "the holes over par, hardest first")

            // The layout's page adds up every round on it, and follows a new score at once.
            let second = try LeagueAPITests.object(
                await client.postJSON("/api/v1/rounds", #"{"courseID":"\#(courseID)","start":true,"players":[\#(entries)]}"#))
            let secondID = try #require(second["id"] as? String)
            try await score(ids[0], 1, 3, round: secondID)
            let layout = try await client.as(.anonymous).get("/courses/\(courseID)").text
            #expect(layout.contains("2 rounds · 13 scores"), "\(layout)")
            #expect(Self.rows(layout).first?.average == "-0.20")
            try await score(ids[1], 1, 5, round: secondID)
            let again = try await client.get("/api/v1/courses/\(courseID)/stats").json()
            let first = try #require((again["holes"] as? [[String: Any]])?.first)
            #expect(first["played"] as? Int == 6 && first["averageToPar"] as? Double == 0.167, "\(first)")
            #expect(try await client.as(.anonymous).get("/courses/\(UUID())").status == .notFound)

            // Both rounds live: the TV's page adds them up; completing the first leaves the second's.
            #expect(try await client.postJSON("/api/v1/rounds/\(roundID)/complete", "{}").status == .ok)
            let later = try await client.as(.anonymous).get("/tv").text
            let holes = Self.rows(later[(later.range(of: "tv-holes")?.lowerBound ?? later.startIndex)...].description)
            #expect(holes.map(\.hole) == [1] && holes.first?.average == "+1.00", "only the live round's holes")
        }
    }
}
