import Foundation
import HyzerCore
import Testing

@testable import HyzerWeb

/// A season whose handicaps go by rating: (1000 − rating) ÷ the layout's points per throw,
/// from the layout's par until a round on it is rated, then from that round's SSA; frozen
/// when the night starts like the other methods.
@Suite struct RatingHandicapTests {
    @Test func aNightsHandicapsComeFromRatingsAndTheLayoutsPointsPerThrow() async throws {
        try await withApp(seedDemo: false) { client in
            let season = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/seasons", #"{"name":"Rated league","divisions":["MPO"],"placesBy":"net","handicap":{"method":"rating"}}"#))
            let seasonID = try #require(season["id"] as? String)
            // Eighteen par-3 holes: par 54.
            let holes = (1...18).map { #"{"number":\#($0),"par":3}"# }.joined(separator: ",")
            let courseID = try #require(
                try LeagueAPITests.object(await client.postJSON("/api/v1/courses", #"{"name":"Eighteen","holes":[\#(holes)]}"#))["id"] as? String)
            let ratings = [1000, 960, 930, 900, 870, 840]
            var players: [String] = []
            for (index, rating) in ratings.enumerated() {
                let made = try LeagueAPITests.object(
                    await client.postJSON("/api/v1/players", #"{"displayName":"R\#(index)","handle":"rh\#(index)"}"#))
                let id = try #require(made["id"] as? String)
                #expect(try await client.postJSON("/api/v1/players/\(id)/rating", #"{"rating":\#(rating)}"#, method: .put).status == .ok)
                players.append(id)
            }
            func night(_ name: String, strokes: [Int]) async throws -> (eventID: String, roundID: String) {
                let event = try LeagueAPITests.object(
                    await client.postJSON("/api/v1/events", #"{"name":"\#(name)","divisions":["MPO"],"seasonID":"\#(seasonID)"}"#))
                let eventID = try #require(event["id"] as? String)
                let entries = players.map { #"{"playerID":"\#($0)","division":"MPO"}"# }.joined(separator: ",")
                let round = try LeagueAPITests.object(
                    await client.postJSON(
                        "/api/v1/rounds", #"{"courseID":"\#(courseID)","eventID":"\#(eventID)","start":true,"players":[\#(entries)]}"#))
                let roundID = try #require(round["id"] as? String)
                var csv = "handle," + (1...18).map(String.init).joined(separator: ",") + "\n"
                for (index, total) in strokes.enumerated() {
                    // `total` over 18 holes: threes, the extra throws on the first holes.
                    let extra = total - 54
                    csv += "rh\(index)," + (0..<18).map { String(3 + ($0 < abs(extra) ? extra.signum() : 0)) }.joined(separator: ",") + "\n"
                }
                let imported = try await client.execute(
                    uri: "/api/v1/rounds/\(roundID)/results", method: .post, headers: [.contentType: "text/csv"], body: .init(string: csv))
                #expect(imported.status == .ok, "\(imported.text.prefix(300))")
                #expect(try await client.postJSON("/api/v1/rounds/\(roundID)/complete", "{}").status == .ok)
                return (eventID, roundID)
            }
            func handicap(_ player: String, on eventID: String) async throws -> [String: Any]? {
                let history = try LeagueAPITests.object(await client.get("/api/v1/players/\(player)/handicaps"), .ok)
                return (history["history"] as? [[String: Any]])?.first { $0["eventID"] as? String == eventID }
            }

            // Night 1: nothing on the layout is rated yet, so a throw is worth the fit's points at
            // the par (54): the 900-rated player's handicap is 100 ÷ 9.23 = 10.8, 11 throws off.
            let (first, firstRound) = try await night("Night 1", strokes: [52, 55, 57, 60, 63, 66])
            let byPar = RoundRatings.pointsPerThrow(ssa18: 54)
            let third = try #require(try await handicap(players[3], on: first))
            #expect(third["method"] as? String == "rating")
            #expect(third["handicap"] as? Double == ((100 / byPar) * 10).rounded() / 10 && third["strokes"] as? Int == 11, "\(third)")
            #expect(try await handicap(players[0], on: first)?["handicap"] as? Double == 0, "a 1000-rated player gives nothing")
            let standings = try LeagueAPITests.object(await client.get("/api/v1/rounds/\(firstRound)/standings"), .ok)
            let row = try #require((standings["standings"] as? [[String: Any]])?.first { $0["playerID"] as? String == players[3] })
            #expect(row["net"] as? Int == 6 - 11, "gross +6 less 11 throws: \(row)")

            // Night 2: the first night's round is rated now; its SSA sets the layout's points per throw.
            let rated = try LeagueAPITests.object(await client.get("/api/v1/rounds/\(firstRound)/ratings"), .ok)
            let ssa = try #require(rated["ssa"] as? Double)
            let (second, _) = try await night("Night 2", strokes: [53, 55, 56, 58, 62, 64])
            let perThrow = RoundRatings.pointsPerThrow(ssa18: ssa)
            let expected = ((Double(1000 - 840) / perThrow) * 10).rounded() / 10
            let last = try #require(try await handicap(players[5], on: second))
            #expect(abs((last["handicap"] as? Double ?? 0) - expected) < 0.11, "\(last) against \(expected) (SSA \(ssa))")
            #expect(try await handicap(players[5], on: first)?["handicap"] as? Double == ((160 / byPar) * 10).rounded() / 10, "frozen")

            // The season page says how; the form offers the method.
            #expect(try await client.get("/seasons/\(seasonID)").text.contains("rating points per throw (from its latest rated round"))
            #expect(try await client.get("/seasons/new").text.contains(#"<option value="rating""#))
        }
    }
}
