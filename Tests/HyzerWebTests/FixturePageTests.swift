import Foundation
import HyzerCore
import HyzerStore
import Testing

/// Every released schema's fixture databases (Tests/Fixtures/*), served by today's code:
/// every page, the API and the standings show their data.
@Suite struct FixturePageTests {
    static let root = repositoryRoot.appendingPathComponent("Tests/Fixtures")

    static var folders: [URL] {
        let entries = (try? FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: [.isDirectoryKey])) ?? []
        return entries.filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }.sorted { $0.path < $1.path }
    }

    @Test func everyReleasedSchemaHasAFixture() {
        #expect(
            Set(Self.folders.map(\.lastPathComponent)) == [
                "v2-sync", "v3-accounts", "v4-leagues", "v4-store-events", "v5-outbox", "v7-player-division", "v13-fee-payments",
                "v14-entered-rating", "v16-event-played-on", "v17-sync-quarantine",
                "v19-tag-challenges", "v20-money",
            ])
    }

    @Test(arguments: folders)
    func pagesAPIAndStandingsServeTheFixture(_ folder: URL) async throws {
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("expected.json"))) as? [String: Any]
        let roundID = try #require(expected?["roundID"] as? String)
        let leader = try #require(expected?["leader"] as? [String: Any])
        let leaderName = try #require(leader["displayName"] as? String)
        let leaderStrokes = leader["strokes"] as? Int
        let players = expected?["players"] as? Int
        let lastIsDNF = expected?["lastIsDNF"] as? Bool
        let roundName = try #require(expected?["roundName"] as? String)
        try await withApp(
            seedDemo: false,
            prepare: { directory in
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for name in [Stores.domainFileName, Stores.operationalFileName] {
                    try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: directory.appendingPathComponent(name))
                }
            }
        ) { client in
            #expect(try await client.as(.anonymous).get("/").text.contains(roundName))
            for path in ["/rounds/\(roundID)", "/rounds/\(roundID)/leaderboard", "/tv"] {
                let page = try await client.as(.anonymous).get(path)
                #expect(page.status == .ok, "\(path)")
                #expect(page.text.contains(leaderName), "\(path) shows the leader")
            }
            for path in ["/sync", "/admin", "/rounds/new", "/api/v1/rounds", "/api/v1/rounds/\(roundID)", "/api/v1/sync"] {
                #expect(try await client.as(.admin).get(path).status == .ok, "\(path)")
            }
            let standings = try #require(try await client.standings(roundID)["standings"] as? [[String: Any]])
            #expect(standings.count == players)
            #expect(standings.first?["displayName"] as? String == leaderName)
            #expect(standings.first?["strokes"] as? Int == leaderStrokes)
            #expect(standings.last?["dnf"] as? Bool == lastIsDNF)
            let rounds = try #require(try await client.get("/api/v1/rounds").json()["rounds"] as? [[String: Any]])
            #expect(rounds.contains { $0["id"] as? String == roundID }, "the fixture's round is listed (with any league nights' rounds)")
            // Scoring still works on the migrated data.
            let player = try #require(standings.first?["playerID"] as? String)
            let posted = try await client.postJSON(
                "/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(player)","hole":1,"strokes":2,"supersedes":null}"#)
            #expect([.created, .conflict].contains(posted.status))
        }
    }
}
