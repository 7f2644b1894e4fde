import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite struct APITests {
    @Test func roundsListMatchesTheContract() async throws {
        try await withApp { client in
            let response = try await client.get("/api/v1/rounds")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            let round = try #require((try response.json()["rounds"] as? [[String: Any]])?.first)
            #expect(Set(round.keys) == ["id", "name", "courseName", "status", "startedAt"])
            #expect(round["status"] as? String == "active")
            #expect(round["courseName"] as? String == "Maple Hill DGC")
            let started = try #require(round["startedAt"] as? String)
            #expect(ISO8601DateFormatter().date(from: started) != nil)
        }
    }

    @Test func roundDetailMatchesTheContract() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let detail = try await client.roundDetail(roundID)
            #expect(detail["id"] as? String == roundID)
            #expect(detail["status"] as? String == "active")
            let holes = try #require(detail["holes"] as? [[String: Any]])
            #expect(holes.count == 18)
            #expect(holes.first?["number"] as? Int == 1)
            #expect(holes.first?["par"] as? Int == 3)
            let players = try #require(detail["players"] as? [[String: Any]])
            #expect(players.count == 6)
            #expect(Set(players[0].keys).isSuperset(of: ["id", "displayName", "handle"]))
        }
    }

    @Test func standingsMatchTheContract() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let standings = try await client.standings(roundID)
            #expect(standings["roundID"] as? String == roundID)
            #expect(standings["version"] is Int)
            #expect((standings["conflicts"] as? [Any])?.isEmpty == true)
            let rows = try #require(standings["standings"] as? [[String: Any]])
            #expect(rows.count == 6)
            #expect(Set(rows[0].keys) == ["position", "playerID", "displayName", "toPar", "thru", "strokes", "dnf"])
            let toPars = rows.compactMap { $0["toPar"] as? Int }
            #expect(toPars == toPars.sorted(), "ranked by to-par")
        }
    }

    @Test func postingAScoreIsIdempotentByID() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let playerID = try #require(try await client.roundDetail(roundID).playerIDs().last)
            let version = try await client.standings(roundID)["version"] as? Int ?? 0
            let id = UUID().uuidString.lowercased()
            let body = #"{"id":"\#(id)","playerID":"\#(playerID)","hole":12,"strokes":4}"#

            let created = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", body)
            #expect(created.status == .created)
            let event = try #require(try created.json()["event"] as? [String: Any])
            #expect(event["id"] as? String == id)
            #expect(event["strokes"] as? Int == 4)
            #expect(event["hole"] as? Int == 12)
            #expect(try created.json()["duplicate"] == nil)

            let retried = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", body)
            #expect(retried.status == .ok)
            #expect(try retried.json()["duplicate"] as? Bool == true)
            #expect((try retried.json()["event"] as? [String: Any])?["id"] as? String == id)

            let changed = try await client.postJSON(
                "/api/v1/rounds/\(roundID)/scores", #"{"id":"\#(id)","playerID":"\#(playerID)","hole":12,"strokes":5}"#)
            #expect(changed.status == .conflict)
            #expect(changed.headers[.contentType] == "application/problem+json")

            let after = try await client.standings(roundID)
            #expect(after["version"] as? Int == version + 1, "only the first POST changed the round")
        }
    }

    @Test func aCorrectionAndADNFThroughTheAPI() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let playerID = try #require(try await client.roundDetail(roundID).playerIDs().last)
            let created = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(playerID)","hole":15,"strokes":7}"#)
            let firstID = try #require((try created.json()["event"] as? [String: Any])?["id"] as? String)
            let corrected = try await client.postJSON(
                "/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(playerID)","hole":15,"strokes":4,"supersedes":"\#(firstID)"}"#)
            #expect(corrected.status == .created)
            #expect((try corrected.json()["event"] as? [String: Any])?["supersedes"] as? String == firstID)

            let dnf = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(playerID)","hole":16,"strokes":"DNF"}"#)
            #expect(dnf.status == .created)
            let standings = try await client.standings(roundID)
            #expect(standings.row(playerID)?["dnf"] as? Bool == true)
            #expect((standings["standings"] as? [[String: Any]])?.last?["playerID"] as? String == playerID)
            #expect(standings.row(playerID)?["position"] as? String == "DNF")
        }
    }

    @Test(arguments: [
        (#"{"hole":1,"strokes":3}"#, "playerID"),
        (#"{"playerID":"nope","hole":1,"strokes":3}"#, "playerID"),
        (#"{"playerID":"PLAYER","hole":"first","strokes":3}"#, "hole"),
        (#"{"playerID":"PLAYER","hole":40,"strokes":3}"#, "hole"),
        (#"{"playerID":"PLAYER","hole":18,"strokes":100}"#, "strokes"),
        (#"{"playerID":"PLAYER","hole":18,"strokes":[3]}"#, "strokes"),
        (#"{"playerID":"PLAYER","hole":18,"strokes":3,"supersedes":"\#(UUID().uuidString)"}"#, "supersedes"),
    ])
    func badScoresAreAProblemDocumentAndWriteNothing(body: String, field: String) async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let playerID = try #require(try await client.roundDetail(roundID).playerIDs().last)
            let version = try await client.standings(roundID)["version"] as? Int
            let response = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", body.replacingOccurrences(of: "PLAYER", with: playerID))
            #expect(response.status == .unprocessableContent)
            #expect(response.headers[.contentType] == "application/problem+json")
            let problem = try response.json()
            #expect(problem["status"] as? Int == 422)
            #expect(problem["title"] as? String == "Invalid input")
            let fields = (problem["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String } ?? []
            #expect(fields.contains(field), "\(problem)")
            #expect(try await client.standings(roundID)["version"] as? Int == version)
        }
    }

    @Test func malformedJSONIsA400Problem() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let response = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", "{not json")
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/problem+json")
        }
    }

    @Test func unknownRoundsAndPathsAre404Problems() async throws {
        try await withApp { client in
            for path in [
                "/api/v1/rounds/\(UUID().uuidString)", "/api/v1/rounds/\(UUID().uuidString)/standings", "/api/v1/rounds/xyz", "/api/v1/nothing",
            ] {
                let response = try await client.get(path)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.headers[.contentType] == "application/problem+json", "\(path)")
                #expect(try response.json()["status"] as? Int == 404)
            }
            let post = try await client.postJSON(
                "/api/v1/rounds/\(UUID().uuidString)/scores", #"{"playerID":"\#(UUID().uuidString)","hole":1,"strokes":3}"#)
            #expect(post.status == .notFound)
        }
    }

    @Test func scoresInACompletedRoundAreAConflict() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let playerID = try #require(try await client.roundDetail(roundID).playerIDs().last)
            _ = try await client.postForm("/rounds/\(roundID)/complete", [("confirm", "yes")])
            let response = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(playerID)","hole":18,"strokes":3}"#)
            #expect(response.status == .conflict)
            #expect(try response.json()["detail"] as? String == "This round is completed: scores can no longer be entered.")
        }
    }

    @Test func rescoringAHoleWithoutSupersedesIsAConflict() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let playerID = try #require(try await client.roundDetail(roundID).playerIDs().first)
            let response = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(playerID)","hole":1,"strokes":3}"#)
            #expect(response.status == .conflict)
            let detail = try response.json()["detail"] as? String
            let current = try #require(try response.json()["currentEventID"] as? String)
            #expect(detail?.contains("Correct that score (id \(current)) to change it") == true)
        }
    }
}
