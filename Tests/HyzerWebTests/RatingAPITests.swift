import Foundation
import HTTPTypes
import HummingbirdTesting
import HyzerCore
import NIOCore
import Testing

@testable import HyzerWeb

/// Ratings through the JSON API: the three published PDGA rounds loaded as a club would (a
/// course, its players with their PDGA ratings entered, the round's results imported and the
/// round completed) and rated; how close the ratings land is kept as bounds.
@Suite struct RatingAPITests {
    struct Published: Decodable {
        struct Player: Decodable {
            var name: String
            var rating: Int?
            var scores: [Int?]
            var played: Int
            var published_round_rating: Int?
        }

        var pars: [Int]
        var players: [Player]
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Loads one published round; returns |ours − PDGA's| per player with a published rating.
    static func load(_ name: String, _ client: Client, prefix: String) async throws -> (differences: [Int], round: [String: Any]) {
        let url = root.deletingLastPathComponent().appendingPathComponent("shared/data/pdga-ratings/\(name).json")
        let published = try JSONDecoder().decode(Published.self, from: Data(contentsOf: url))
        let holes = published.pars.enumerated().map { #"{"number":\#($0.offset + 1),"par":\#($0.element)}"# }.joined(separator: ",")
        let course = try LeagueAPITests.object(await client.postJSON("/api/v1/courses", #"{"name":"\#(name)","holes":[\#(holes)]}"#))
        var ids: [String] = []
        for (index, player) in published.players.enumerated() {
            let made = try LeagueAPITests.object(
                await client.postJSON("/api/v1/players", #"{"displayName":"\#(player.name)","handle":"\#(prefix)\#(index)"}"#))
            let id = try #require(made["id"] as? String)
            if let rating = player.rating {
                let entered = try await client.postJSON("/api/v1/players/\(id)/rating", #"{"rating":\#(rating)}"#, method: .put)
                #expect(entered.status == .ok, "\(entered.text)")
            }
            ids.append(id)
        }
        let entries = ids.map { #"{"playerID":"\#($0)"}"# }.joined(separator: ",")
        let round = try LeagueAPITests.object(
            await client.postJSON("/api/v1/rounds", #"{"courseID":"\#(course["id"] ?? "")","start":true,"players":[\#(entries)]}"#))
        let roundID = try #require(round["id"] as? String)
        var csv = "handle," + published.pars.indices.map { String($0 + 1) }.joined(separator: ",") + "\n"
        for (index, player) in published.players.enumerated() {
            csv += "\(prefix)\(index)," + player.scores.map { $0.map(String.init) ?? "" }.joined(separator: ",") + "\n"
        }
        let imported = try await client.execute(
            uri: "/api/v1/rounds/\(roundID)/results", method: .post, headers: [.contentType: "text/csv"], body: ByteBuffer(string: csv))
        #expect(imported.status == .ok, "\(imported.text.prefix(300))")
        let provisional = try await client.get("/api/v1/rounds/\(roundID)/ratings").json()
        #expect(provisional["provisional"] as? Bool == true, "rated provisionally while in progress")
        #expect(try await client.postJSON("/api/v1/rounds/\(roundID)/complete", "{}").status == .ok)
        let rated = try await client.get("/api/v1/rounds/\(roundID)/ratings").json()
        let ratings = Dictionary(
            uniqueKeysWithValues: (rated["ratings"] as? [[String: Any]] ?? []).compactMap { row in
                (row["playerID"] as? String).flatMap { id in (row["rating"] as? Int).map { (id, $0) } }
            })
        let differences = zip(ids, published.players).compactMap { id, player -> Int? in
            guard let pdga = player.published_round_rating, let ours = ratings[id] else { return nil }
            return abs(ours - pdga)
        }
        return (differences.sorted(), rated)
    }

    @Test func thePublishedRoundsRateWithinAFewPointsOfThePDGAs() async throws {
        try await withApp(seedDemo: false) { client in
            var all: [Int] = []
            for (index, (name, median, p90)) in [("77763-MPO-1", 6.0, 7), ("77763-FPO-1", 5.0, 6), ("78666-MPO-1", 3.0, 3)].enumerated() {
                let (differences, round) = try await Self.load(name, client, prefix: "r\(index)p")
                #expect(round["provisional"] as? Bool == false && round["ssa"] as? Double != nil)
                #expect((round["propagators"] as? Int ?? 0) >= 40)
                #expect(differences.count >= 40, "\(name): \(differences.count) compared")
                let agreement = try #require(Agreement(differences))
                #expect(agreement.median <= median && agreement.percentile90 <= p90, "\(name): \(differences)")
                all += differences
            }
            let together = try #require(Agreement(all))
            #expect(together.median <= 4 && together.percentile90 <= 6, "\(all.sorted())")
        }
    }

    @Test func aRoundWithoutEnoughPropagatorsSaysWhy() async throws {
        try await withApp(seedDemo: true) { client in
            let roundID = try await client.demoRoundID()
            let ratings = try await client.get("/api/v1/rounds/\(roundID)/ratings").json()
            #expect(ratings["ssa"] is NSNull && (ratings["reason"] as? String)?.contains("Too few propagators") == true)
            let unrated = try #require(ratings["unrated"] as? [[String: Any]])
            #expect(!unrated.isEmpty && unrated.allSatisfy { ($0["reason"] as? String)?.isEmpty == false })
            let me = client.users.athlete.playerID.uuidString.lowercased()
            #expect(try await client.postJSON("/api/v1/players/\(me)/rating", #"{"rating":5000}"#, method: .put).status == .unprocessableContent)
            #expect(try await client.as(.athlete).postJSON("/api/v1/players/\(me)/rating", #"{"rating":900}"#, method: .put).status == .forbidden)
            let entered = try await client.postJSON("/api/v1/players/\(me)/rating", #"{"rating":912}"#, method: .put).json()
            #expect(entered["rating"] as? Int == 912 && entered["source"] as? String == "entered" && entered["established"] as? Bool == true)
            let cleared = try await client.postJSON("/api/v1/players/\(me)/rating", #"{"rating":null}"#, method: .put).json()
            #expect(cleared["rating"] is NSNull && cleared["enteredRating"] is NSNull)
            #expect(try await client.get("/api/v1/players/\(UUID())/ratings").status == .notFound)
        }
    }

    @Test func aCorrectionRatesTheRoundAgainAndHoleStatisticsFollowTheScores() async throws {
        try await withApp(seedDemo: false) { client in
            let course = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/courses", #"{"name":"Three","holes":[{"number":1,"par":3},{"number":2,"par":3},{"number":3,"par":4}]}"#))
            let courseID = try #require(course["id"] as? String)
            var ids: [String] = []
            for (index, rating) in [1000, 980, 960, 940, 920, 900].enumerated() {
                let made = try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"P\#(index)","handle":"p\#(index)"}"#))
                let id = try #require(made["id"] as? String)
                #expect(try await client.postJSON("/api/v1/players/\(id)/rating", #"{"rating":\#(rating)}"#, method: .put).status == .ok)
                ids.append(id)
            }
            let entries = ids.map { #"{"playerID":"\#($0)"}"# }.joined(separator: ",")
            let round = try LeagueAPITests.object(
                await client.postJSON("/api/v1/rounds", #"{"courseID":"\#(courseID)","start":true,"players":[\#(entries)]}"#))
            let roundID = try #require(round["id"] as? String)
            var first: String?
            for (index, id) in ids.enumerated() {
                for hole in 1...3 {
                    // Everyone plays to par but the last player, a 5 on hole 3's par 4.
                    let strokes = hole == 3 ? (index == 5 ? 5 : 4) : 3
                    let posted = try await client.postJSON(
                        "/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(id)","hole":\#(hole),"strokes":\#(strokes)}"#)
                    if index == 5 && hole == 3 { first = (try posted.json()["event"] as? [String: Any])?["id"] as? String }
                }
            }
            #expect(try await client.postJSON("/api/v1/rounds/\(roundID)/complete", "{}").status == .ok)
            func rating(of player: String) async throws -> Int? {
                let rated = try await client.get("/api/v1/rounds/\(roundID)/ratings").json()
                return (rated["ratings"] as? [[String: Any]])?.first { $0["playerID"] as? String == player }?["rating"] as? Int
            }
            let before = try #require(try await rating(of: ids[5]))
            // The last player's 5 on hole 3 was a 4 (the round reopened to fix it): their round rates higher now.
            #expect(try await client.postJSON("/api/v1/rounds/\(roundID)/reopen", "{}").status == .ok)
            let corrected = try await client.postJSON(
                "/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(ids[5])","hole":3,"strokes":4,"supersedes":"\#(first ?? "")"}"#)
            #expect(corrected.status == .created, "\(corrected.text)")
            #expect(try await client.postJSON("/api/v1/rounds/\(roundID)/complete", "{}").status == .ok)
            let now = try await client.get("/api/v1/rounds/\(roundID)/ratings").text
            let after = try #require(try await rating(of: ids[5]), "\(now)")
            #expect(after > before, "\(before) → \(after)")
            // The results CSV carries the round rating and the player's rating.
            let csv = try await client.get("/rounds/\(roundID)/results.csv").text
            #expect(csv.contains("Round rating,Player rating"))
            let line = try #require(csv.split(separator: "\n").first { $0.contains("p5") })
            #expect(line.hasSuffix(",\(after),900") || line.hasSuffix(",\(after),900\r"), "\(line)")
            let history = try await client.get("/api/v1/players/\(ids[5])/ratings").json()
            #expect((history["rounds"] as? [[String: Any]])?.first?["rating"] as? Int == after)
            #expect(history["source"] as? String == "entered" && history["rating"] as? Int == 900, "one rated round: the entered rating still stands")

            // The player's page: the entered rating said as such, the round with its rating; a
            // second rated round makes a history line.
            let page = try await client.as(.anonymous).get("/players/\(ids[5])").text
            #expect(page.contains("Entered by a coach") && page.contains(#"<span class="rating-value">900</span>"#))
            #expect(page.contains(#"<td class="rating">\#(after)</td>"#) && !page.contains("rating-chart"))
            let again = try LeagueAPITests.object(
                await client.postJSON("/api/v1/rounds", #"{"courseID":"\#(courseID)","start":true,"players":[\#(entries)]}"#))
            let againID = try #require(again["id"] as? String)
            for id in ids {
                for hole in 1...3 {
                    _ = try await client.postJSON("/api/v1/rounds/\(againID)/scores", #"{"playerID":"\#(id)","hole":\#(hole),"strokes":3}"#)
                }
            }
            #expect(try await client.postJSON("/api/v1/rounds/\(againID)/complete", "{}").status == .ok)
            let charted = try await client.as(.anonymous).get("/players/\(ids[5])").text
            #expect(charted.contains(#"<svg class="rating-chart""#) && charted.contains("Birdies"))
            #expect(try await client.get("/players/new").status == .ok, "the new-player form is still where it was")

            let stats = try await client.get("/api/v1/courses/\(courseID)/stats?roundID=\(roundID)").json()
            #expect(stats["rounds"] as? Int == 1)
            let holes = try #require(stats["holes"] as? [[String: Any]])
            #expect(holes.map { $0["played"] as? Int } == [6, 6, 6])
            #expect(holes.map { $0["difficultyRank"] as? Int } == [1, 1, 1], "every hole played to par: equally hard")
            #expect((holes[2]["distribution"] as? [String: Any])?["par"] as? Int == 6, "the corrected 5 counts as the 4 it was")
            #expect(try await client.get("/api/v1/courses/\(courseID)/stats").json()["rounds"] as? Int == 2, "every round on the layout")
            #expect(try await client.get("/api/v1/courses/\(courseID)/stats?roundID=nope").status == .unprocessableContent)
            #expect(try await client.get("/api/v1/courses/\(UUID())/stats").status == .notFound)
        }
    }
}
