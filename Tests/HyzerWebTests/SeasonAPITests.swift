import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// A season built from real published rounds (`shared/data/real-rounds`): its table, through
/// the JSON API, gives each player the points their published places earn, worked out here
/// from the published positions alone.
@Suite struct SeasonAPITests {
    typealias RealRound = LeagueAPITests.RealRound

    /// Field-size points of each published position: N finishers, first N, … last 1; a tie
    /// shares the average of the places it covers, rounded down; a DNF none.
    static func publishedPoints(_ real: RealRound) -> [Int] {
        let finishers = real.players.filter { !$0.dnf }.count
        return real.players.map { player in
            guard !player.dnf, let place = Int(player.published_position.drop { $0 == "T" }) else { return 0 }
            let tied = real.players.filter { !$0.dnf && $0.published_position == player.published_position }.count
            let total = (place..<(place + tied)).reduce(0) { $0 + (finishers - $1 + 1) }
            return total / tied
        }
    }

    @Test func aSeasonOfRealRoundsGivesThePointsOfThePublishedPlaces() async throws {
        let mpo = try RealRound.load("pdga-2024-dynamic-discs-open-mpo-r1")
        let fpo = try RealRound.load("pdga-2024-dynamic-discs-open-fpo-r1")
        let ale = try RealRound.load("pdga-2024-ale-open-fpo-r1")
        try await withApp(seedDemo: false) { client in
            let season = try LeagueAPITests.object(
                await client.postJSON("/api/v1/seasons", #"{"name":"Real league","startsOn":"2024-05-03","divisions":["MPO","FPO"]}"#))
            let seasonID = try #require(season["id"] as? String)
            #expect((season["rules"] as? String)?.contains("as many points as players finished") == true)
            func night(_ name: String) async throws -> String {
                let event = try LeagueAPITests.object(
                    await client.postJSON("/api/v1/events", #"{"name":"\#(name)","divisions":["MPO","FPO"],"seasonID":"\#(seasonID)"}"#))
                #expect(event["seasonID"] as? String == seasonID)
                return try #require(event["id"] as? String)
            }
            // Night 1: both divisions. Night 2: the first 26 FPO players of night 1 shoot the
            // Ale Open's FPO round (its DNF included).
            let first = try await night("Night 1")
            let men = try await LeagueAPITests.play(mpo, name: "MPO night 1", division: "MPO", eventID: first, client: client)
            let women = try await LeagueAPITests.play(fpo, name: "FPO night 1", division: "FPO", eventID: first, client: client)
            let second = try await night("Night 2")
            _ = try await LeagueAPITests.play(ale, name: "FPO night 2", division: "FPO", eventID: second, players: women.ids, client: client)

            let standings = try LeagueAPITests.object(await client.get("/api/v1/seasons/\(seasonID)/standings"), .ok)
            #expect(standings["seasonID"] as? String == seasonID)
            let divisions = try #require(standings["divisions"] as? [[String: Any]])
            #expect(divisions.map { $0["name"] as? String } == ["MPO", "FPO"])
            func table(_ index: Int) throws -> [String: [String: Any]] {
                let rows = try #require(divisions[index]["standings"] as? [[String: Any]])
                return Dictionary(uniqueKeysWithValues: rows.compactMap { row in (row["playerID"] as? String).map { ($0, row) } })
            }
            let menTable = try table(0)
            for (id, points) in zip(men.ids, Self.publishedPoints(mpo)) {
                #expect(menTable[id]?["points"] as? Int == points)
            }
            let womenTable = try table(1)
            let second26 = Self.publishedPoints(ale)
            for (index, (id, points)) in zip(women.ids, Self.publishedPoints(fpo)).enumerated() {
                let expected = points + (index < second26.count ? second26[index] : 0)
                #expect(womenTable[id]?["points"] as? Int == expected, "FPO player \(index)")
                let nights = womenTable[id]?["nights"] as? [[String: Any]] ?? []
                #expect(nights.map { $0["eventID"] as? String } == (index < second26.count ? [first, second] : [first]))
            }
            // Positions follow points, level points share one.
            let rows = try #require(divisions[1]["standings"] as? [[String: Any]])
            let points = rows.compactMap { $0["points"] as? Int }
            #expect(points == points.sorted(by: >))
            for (row, next) in zip(rows, rows.dropFirst()) where row["points"] as? Int == next["points"] as? Int {
                #expect(row["position"] as? String == next["position"] as? String && (row["position"] as? String)?.hasPrefix("T") == true)
            }
            // The page and the CSV show the same table.
            let page = try await client.get("/seasons/\(seasonID)")
            #expect(page.status == .ok && page.text.contains("Real league") && page.text.contains(rows.first?["displayName"] as? String ?? "?"))
            let csv = try await client.get("/seasons/\(seasonID)/standings.csv")
            #expect(csv.status == .ok && csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(csv.text.contains("Position,Name,Division,Night 1,Night 2,Points,Nights counted"))
        }
    }

    @Test func aSeasonIsValidatedAndANightNamesARealSeason() async throws {
        try await withApp(seedDemo: false) { client in
            let refusals = [
                #"{"name":""}"#, #"{"name":"S","placesBy":"net"}"#, #"{"name":"S","points":{"rule":"table"}}"#,
                #"{"name":"S","points":{"rule":"table","table":[5,10]}}"#, #"{"name":"S","startsOn":"2026-02-30"}"#,
                #"{"name":"S","startsOn":"2026-05-01","endsOn":"2026-04-01"}"#, #"{"name":"S","handicap":{"method":"percentage","percent":50}}"#,
                #"{"name":"S","points":{"bestNights":0}}"#, #"{"name":"S","divisions":["MPO","mpo"]}"#,
            ]
            for body in refusals {
                let answer = try await client.postJSON("/api/v1/seasons", body)
                #expect(answer.status == .unprocessableContent, "\(body): \(answer.text)")
            }
            #expect(try await client.get("/api/v1/seasons").json()["seasons"] as? [Any] != nil)
            #expect((try await client.get("/api/v1/seasons").json()["seasons"] as? [Any])?.isEmpty == true, "nothing half-written")
            let orphan = try await client.postJSON("/api/v1/events", #"{"name":"N","seasonID":"\#(UUID())"}"#)
            #expect(orphan.status == .unprocessableContent && orphan.text.contains("seasonID"))
            let net = try await client.postJSON(
                "/api/v1/seasons",
                #"{"name":"Net league","placesBy":"net","handicap":{"method":"percentage","percent":90},"points":{"rule":"table","table":[25,20,16],"pastTable":"zero","bestNights":6,"participation":1}}"#
            )
            #expect(net.status == .created)
            let made = try net.json()
            #expect(made["placesBy"] as? String == "net")
            #expect((made["handicap"] as? [String: Any])?["percent"] as? Int == 90)
            #expect((made["points"] as? [String: Any])?["table"] as? [Int] == [25, 20, 16])
            #expect((made["rules"] as? String)?.contains("90% of a player's average") == true)
            #expect(try await client.as(.athlete).postJSON("/api/v1/seasons", #"{"name":"Mine"}"#).status == .forbidden)
        }
    }

    @Test func aNetSeasonPlacesOnTheNightsHandicapAndKeepsItsHistory() async throws {
        try await withApp(seedDemo: false) { client in
            let season = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/seasons",
                    #"{"name":"Net league","divisions":["MPO"],"placesBy":"net","handicap":{"method":"percentage","percent":100,"minimumRounds":1}}"#)
            )
            let seasonID = try #require(season["id"] as? String)
            let course = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/courses", #"{"name":"Three","holes":[{"number":1,"par":3},{"number":2,"par":3},{"number":3,"par":3}]}"#))
            var players: [String] = []
            for handle in ["ann", "ben"] {
                players.append(
                    try #require(
                        try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"\#(handle)","handle":"\#(handle)"}"#))[
                            "id"]
                            as? String))
            }
            /// A night of one 3-hole round: each player's strokes on every hole.
            func night(_ name: String, _ strokes: [Int]) async throws -> (event: String, round: String) {
                let event = try LeagueAPITests.object(
                    await client.postJSON("/api/v1/events", #"{"name":"\#(name)","divisions":["MPO"],"seasonID":"\#(seasonID)"}"#))
                let eventID = try #require(event["id"] as? String)
                let entries = players.map { #"{"playerID":"\#($0)","division":"MPO"}"# }.joined(separator: ",")
                let round = try LeagueAPITests.object(
                    await client.postJSON(
                        "/api/v1/rounds",
                        #"{"courseID":"\#(course["id"] ?? "")","name":"\#(name)","eventID":"\#(eventID)","start":true,"players":[\#(entries)]}"#))
                let roundID = try #require(round["id"] as? String)
                for (player, score) in zip(players, strokes) {
                    for hole in 1...3 {
                        _ = try LeagueAPITests.object(
                            await client.postJSON(
                                "/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(player)","hole":\#(hole),"strokes":\#(score)}"#))
                    }
                }
                return (eventID, roundID)
            }
            // Night 1: ann +6 (3 holes of 5), ben −3 (3 holes of 2). Night 2: ann +3, ben 0.
            let (first, firstRound) = try await night("Night 1", [5, 2])
            let (second, secondRound) = try await night("Night 2", [4, 3])
            let history = try LeagueAPITests.object(await client.get("/api/v1/players/\(players[0])/handicaps"), .ok)
            let nights = try #require(history["history"] as? [[String: Any]])
            // Ann's handicap on night 2: +6 over 3 holes is +36 on 18 holes.
            #expect(nights.map { $0["eventID"] as? String } == [second])
            #expect(nights.first?["handicap"] as? Double == 36 && nights.first?["method"] as? String == "percentage")
            #expect((nights.first?["roundIDs"] as? [String])?.count == 1)
            #expect(((history["current"] as? [String: Any])?["handicap"] as? Double) == 27, "(36 + 18) / 2 for the next night")
            // Night 2 net: ann +3 − 6 (36 on 3 holes) = −3; ben 0 − (−3) = +3: ann wins net.
            let table = try LeagueAPITests.object(await client.get("/api/v1/seasons/\(seasonID)/standings"), .ok)
            let rows = try #require((table["divisions"] as? [[String: Any]])?.first?["standings"] as? [[String: Any]])
            let annNights = try #require(rows.first { $0["playerID"] as? String == players[0] }?["nights"] as? [[String: Any]])
            #expect(annNights.map { $0["eventID"] as? String } == [first, second])
            #expect(annNights.map { $0["place"] as? Int } == [2, 1], "second on gross the first night, first on net the next")
            #expect(try await client.get("/api/v1/players/\(UUID())/handicaps").status == .notFound)
            // The night's page shows net beside gross: ann's handicap, −3 net and first place.
            let page = try await client.get("/events/\(second)").text
            #expect(page.contains("League night of <a href=\"/seasons/\(seasonID)\">Net league</a>"))
            let annRow = try #require(
                page.components(separatedBy: "<tr data-player=\"\(players[0])\"").dropFirst().first?.components(separatedBy: "</tr>").first)
            #expect(annRow.contains(#"<td class="hcp">36.0</td>"#) && annRow.contains(">-3</td>") && annRow.contains(#"<td class="pos net">1</td>"#))
            let firstNight = try await client.get("/events/\(first)").text
            #expect(firstNight.contains(#"<td class="hcp">–</td>"#), "no handicap before a first round")
            // The round's own board and API show net beside gross, from the frozen handicaps:
            // ann takes 6 off (36 on 3 holes), ben −3.
            let standings = try LeagueAPITests.object(await client.get("/api/v1/rounds/\(secondRound)/standings"), .ok)
            let entries = try #require(standings["standings"] as? [[String: Any]])
            let ann = try #require(entries.first { $0["playerID"] as? String == players[0] })
            let ben = try #require(entries.first { $0["playerID"] as? String == players[1] })
            #expect(
                ann["position"] as? String == "2" && ann["handicap"] as? Int == 6 && ann["net"] as? Int == -3 && ann["netPosition"] as? String == "1")
            #expect(
                ben["position"] as? String == "1" && ben["handicap"] as? Int == -3 && ben["net"] as? Int == 3 && ben["netPosition"] as? String == "2")
            let board = try await client.get("/rounds/\(secondRound)/leaderboard").text
            let annOnBoard = try #require(
                board.components(separatedBy: "<tr data-player=\"\(players[0])\"").dropFirst().first?.components(separatedBy: "</tr>").first)
            #expect(
                board.contains("Net pos") && annOnBoard.contains(#"<td class="hcp">6</td>"#) && annOnBoard.contains(#"<td class="pos netpos">1</td>"#)
            )
            // So does the night's standings API, with the handicap's value.
            let night = try LeagueAPITests.object(await client.get("/api/v1/events/\(second)/standings"), .ok)
            let nightRows = try #require((night["divisions"] as? [[String: Any]])?.first?["standings"] as? [[String: Any]])
            let annNight = try #require(nightRows.first { $0["playerID"] as? String == players[0] })
            #expect(annNight["handicap"] as? Double == 36 && annNight["net"] as? Int == -3 && annNight["netPosition"] as? String == "1")
            // Nobody had a handicap on the first night: no net there.
            let plain = try LeagueAPITests.object(await client.get("/api/v1/rounds/\(firstRound)/standings"), .ok)
            #expect((plain["standings"] as? [[String: Any]])?.allSatisfy { $0["net"] == nil } == true)
            #expect(try await !client.get("/rounds/\(firstRound)/leaderboard").text.contains("Net pos"))
        }
    }
}
