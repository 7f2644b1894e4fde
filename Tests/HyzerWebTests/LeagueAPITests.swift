import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Real published results (`shared/data/real-rounds`) set up and scored through the JSON API
/// reproduce every published position and to-par.
@Suite struct LeagueAPITests {
    struct RealRound: Decodable {
        struct Hole: Decodable {
            var number: Int
            var par: Int
        }

        struct Player: Decodable {
            var name: String
            var scores: [Int?]
            var dnf: Bool
            var published_position: String
            var published_to_par: Int?
        }

        var holes: [Hole]
        var players: [Player]

        static func load(_ name: String) throws -> RealRound {
            let url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data/real-rounds/\(name).json")
            return try JSONDecoder().decode(RealRound.self, from: Data(contentsOf: url))
        }

        /// What each player's card says on each hole: the score, DNF where they stopped, nothing after.
        func entry(_ player: Player, hole: Int) -> String? {
            let index = hole - 1
            if player.dnf {
                let last = player.scores.lastIndex { $0 != nil } ?? -1
                let stop = min(last + 1, player.scores.count - 1)
                if index == stop { return "\"DNF\"" }
                if index > stop { return nil }
            }
            return player.scores[index].map(String.init)
        }
    }

    static func object(_ response: TestResponse, _ status: HTTPResponse.Status = .created) throws -> [String: Any] {
        #expect(response.status == status, "\(response.text)")
        return try response.json()
    }

    /// Creates the course and players, a round in `eventID` with every player in `division`,
    /// plans its cards, and scores it card by card, hole by hole in each card's order.
    /// With `players`, those players (in order) shoot the real round's scores instead of new ones.
    static func play(_ real: RealRound, name: String, division: String?, eventID: String?, players: [String]? = nil, client: Client) async throws -> (
        roundID: String, ids: [String]
    ) {
        let holes = real.holes.map { "{\"number\":\($0.number),\"par\":\($0.par)}" }.joined(separator: ",")
        let course = try object(await client.postJSON("/api/v1/courses", "{\"name\":\"\(name) layout\",\"holes\":[\(holes)]}"))
        var ids: [String] = players.map { Array($0.prefix(real.players.count)) } ?? []
        for (index, player) in real.players.enumerated() where players == nil {
            let body = "{\"displayName\":\"\(player.name)\",\"handle\":\"\(name.lowercased().filter(\.isLetter))\(index)\"}"
            ids.append(try #require(try object(await client.postJSON("/api/v1/players", body))["id"] as? String))
        }
        let entries = ids.map { "{\"playerID\":\"\($0)\"\(division.map { ",\"division\":\"\($0)\"" } ?? "")}" }.joined(separator: ",")
        let event = eventID.map { ",\"eventID\":\"\($0)\"" } ?? ""
        let round = try object(
            await client.postJSON("/api/v1/rounds", "{\"courseID\":\"\(course["id"] ?? "")\",\"name\":\"\(name)\"\(event),\"players\":[\(entries)]}"))
        let roundID = try #require(round["id"] as? String)
        let cards = try object(await client.postJSON("/api/v1/rounds/\(roundID)/cards", "{\"auto\":{\"shotgun\":true}}"), .ok)
        let index = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        for card in try #require(cards["cards"] as? [[String: Any]]) {
            let cardID = try #require(card["id"] as? String)
            let members = try #require(card["playerIDs"] as? [String])
            for hole in try #require(card["holeOrder"] as? [Int]) {
                let scores = members.compactMap { id -> String? in
                    guard let player = index[id], let value = real.entry(real.players[player], hole: hole) else { return nil }
                    return "{\"playerID\":\"\(id)\",\"strokes\":\(value)}"
                }
                guard !scores.isEmpty else { continue }
                _ = try object(
                    await client.postJSON(
                        "/api/v1/rounds/\(roundID)/cards/\(cardID)/holes/\(hole)", "{\"scores\":[\(scores.joined(separator: ","))]}"), .ok)
            }
        }
        return (roundID, ids)
    }

    static func expectPublished(_ real: RealRound, ids: [String], rows: [[String: Any]]) {
        #expect(rows.count == real.players.count)
        let byID = Dictionary(uniqueKeysWithValues: rows.compactMap { row in (row["playerID"] as? String).map { ($0, row) } })
        for (player, id) in zip(real.players, ids) {
            let row = byID[id]
            if player.dnf {
                #expect(row?["position"] as? String == "DNF", "\(player.name)")
            } else {
                #expect(row?["position"] as? String == player.published_position, "\(player.name)")
                #expect(row?["toPar"] as? Int == player.published_to_par, "\(player.name)")
            }
        }
        // DNF last.
        #expect(rows.suffix(real.players.filter(\.dnf).count).allSatisfy { $0["dnf"] as? Bool == true })
    }

    @Test func twoDivisionsOnTwoLayoutsReproduceThePublishedPositionsPerDivision() async throws {
        let mpo = try RealRound.load("pdga-2024-dynamic-discs-open-mpo-r1")
        let fpo = try RealRound.load("pdga-2024-dynamic-discs-open-fpo-r1")
        try await withApp(seedDemo: false) { client in
            let event = try Self.object(await client.postJSON("/api/v1/events", "{\"name\":\"Dynamic Discs Open\",\"divisions\":[\"MPO\",\"FPO\"]}"))
            let eventID = try #require(event["id"] as? String)
            let men = try await Self.play(mpo, name: "MPO R1", division: "MPO", eventID: eventID, client: client)
            let women = try await Self.play(fpo, name: "FPO R1", division: "FPO", eventID: eventID, client: client)

            let standings = try Self.object(await client.get("/api/v1/events/\(eventID)/standings"), .ok)
            let divisions = try #require(standings["divisions"] as? [[String: Any]])
            #expect(divisions.map { $0["name"] as? String } == ["MPO", "FPO"])
            Self.expectPublished(mpo, ids: men.ids, rows: try #require(divisions.first?["standings"] as? [[String: Any]]))
            Self.expectPublished(fpo, ids: women.ids, rows: try #require(divisions.last?["standings"] as? [[String: Any]]))

            // The round's own standings list the division with its own positions.
            let round = try await client.standings(men.roundID)
            let roundDivisions = try #require(round["divisions"] as? [[String: Any]])
            #expect(roundDivisions.map { $0["name"] as? String } == ["MPO"])
            Self.expectPublished(mpo, ids: men.ids, rows: try #require(roundDivisions.first?["standings"] as? [[String: Any]]))
            #expect((round["standings"] as? [[String: Any]])?.first?["division"] as? String == "MPO")
        }
    }

    @Test func aBodyOfTheWrongShapeIsA422NamingTheFieldAndNotJSONIsA400() async throws {
        try await withApp(seedDemo: false) { client in
            let wrongType = try await client.postJSON("/api/v1/events", #"{"name": 5}"#)
            #expect(wrongType.status == .unprocessableContent)
            #expect(try wrongType.json()["errors"].map { "\($0)" }?.contains("name") == true)
            let nested = try await client.postJSON("/api/v1/courses", #"{"name": "C", "holes": [{"number": 1}]}"#)
            #expect(nested.status == .unprocessableContent && nested.text.contains("holes[0].par is required"))
            #expect(try await client.postJSON("/api/v1/events", "{not json").status == .badRequest)
            #expect(try await client.get("/api/v1/events").json()["events"] as? [Any] != nil)
            #expect((try await client.get("/api/v1/events").json()["events"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func theLeaderboardShowsOneDivisionWhenAsked() async throws {
        try await withApp(seedDemo: false) { client in
            let event = try Self.object(await client.postJSON("/api/v1/events", #"{"name":"Open","divisions":["MPO","Am 2"]}"#))
            let course = try Self.object(await client.postJSON("/api/v1/courses", #"{"name":"C","holes":[{"number":1,"par":3}]}"#))
            var entries: [String] = []
            for (handle, division) in [("ann", "MPO"), ("ben", "Am 2")] {
                let player = try Self.object(await client.postJSON("/api/v1/players", "{\"displayName\":\"\(handle)\",\"handle\":\"\(handle)\"}"))
                entries.append("{\"playerID\":\"\(player["id"] ?? "")\",\"division\":\"\(division)\"}")
            }
            let round = try Self.object(
                await client.postJSON(
                    "/api/v1/rounds",
                    "{\"courseID\":\"\(course["id"] ?? "")\",\"eventID\":\"\(event["id"] ?? "")\",\"players\":[\(entries.joined(separator: ","))]}"))
            let roundID = try #require(round["id"] as? String)
            let all = try await client.get("/rounds/\(roundID)/leaderboard").text
            #expect(all.contains("data-division=\"MPO\"") && all.contains("data-division=\"Am 2\""))
            #expect(all.contains("href=\"?division=Am%202\""))
            let one = try await client.get("/rounds/\(roundID)/leaderboard?division=Am%202").text
            #expect(one.contains(">ben</a> <") && !one.contains(">ann</a> <"))
            #expect(!one.contains("<div class=\"division\" data-division=\"MPO\""))
        }
    }

    @Test func aRoundWithoutDivisionsReproducesThePublishedPositions() async throws {
        let ale = try RealRound.load("pdga-2024-ale-open-fpo-r1")
        try await withApp(seedDemo: false) { client in
            let round = try await Self.play(ale, name: "Ale Open", division: nil, eventID: nil, client: client)
            let standings = try await client.standings(round.roundID)
            Self.expectPublished(ale, ids: round.ids, rows: try #require(standings["standings"] as? [[String: Any]]))
            #expect((standings["divisions"] as? [Any])?.isEmpty == true)
        }
    }
}
