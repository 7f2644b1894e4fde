import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// CSV in and out: each real PDGA round imported as a player list and hole-by-hole results
/// reproduces every published position; exports read back; a bad file writes nothing.
@Suite struct CSVTests {
    typealias RealRound = LeagueAPITests.RealRound

    static func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    static func postCSV(_ client: Client, _ path: String, _ csv: String) async throws -> TestResponse {
        try await client.execute(uri: path, method: .post, headers: [.contentType: "text/csv"], body: ByteBuffer(string: csv))
    }

    @Test(arguments: ["pdga-2024-dynamic-discs-open-mpo-r1", "pdga-2024-dynamic-discs-open-fpo-r1", "pdga-2024-ale-open-fpo-r1"])
    func importingARealRoundReproducesEveryPublishedPosition(_ name: String) async throws {
        let real = try RealRound.load(name)
        try await withApp(seedDemo: false) { client in
            let players =
                "Name,Handle\r\n"
                + real.players.enumerated().map { index, player in "\(Self.quoted(player.name)),p\(index)" }.joined(separator: "\r\n")
            let imported = try LeagueAPITests.object(try await Self.postCSV(client, "/api/v1/players/import", players))
            let ids = try #require(imported["players"] as? [[String: Any]]).compactMap { $0["id"] as? String }
            #expect(ids.count == real.players.count)

            let holes = real.holes.map { "{\"number\":\($0.number),\"par\":\($0.par)}" }.joined(separator: ",")
            let course = try LeagueAPITests.object(await client.postJSON("/api/v1/courses", "{\"name\":\"Layout\",\"holes\":[\(holes)]}"))
            let entries = ids.map { "{\"playerID\":\"\($0)\"}" }.joined(separator: ",")
            let round = try LeagueAPITests.object(
                await client.postJSON("/api/v1/rounds", "{\"courseID\":\"\(course["id"] ?? "")\",\"players\":[\(entries)]}"))
            let roundID = try #require(round["id"] as? String)

            let header = "Name," + real.holes.map { String($0.number) }.joined(separator: ",") + ",Total"
            let lines = real.players.map { player in
                ([Self.quoted(player.name)] + real.holes.map { real.entry(player, hole: $0.number)?.replacingOccurrences(of: "\"", with: "") ?? "" }
                    + ["ignored"]).joined(separator: ",")
            }
            let results = try LeagueAPITests.object(
                try await Self.postCSV(client, "/api/v1/rounds/\(roundID)/results", ([header] + lines).joined(separator: "\n")), .ok)
            LeagueAPITests.expectPublished(real, ids: ids, rows: try #require(results["standings"] as? [[String: Any]]))

            // Importing the same file again changes nothing.
            let version = results["version"] as? Int
            _ = try LeagueAPITests.object(
                try await Self.postCSV(client, "/api/v1/rounds/\(roundID)/results", ([header] + lines).joined(separator: "\n")), .ok)
            #expect(try await client.standings(roundID)["version"] as? Int == version)

            // The export lists the same positions, in order, with every hole.
            let export = try await client.get("/rounds/\(roundID)/results.csv")
            #expect(export.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(export.text.hasPrefix("\u{FEFF}"), "a byte-order mark for spreadsheet programs")
            let rows = export.text.dropFirst().split(separator: "\r\n").map(String.init)
            #expect(rows.first?.hasPrefix("Position,Name,Handle,Division,1,2,") == true)
            #expect(rows.first?.hasSuffix(",Total,To par,Thru,Round rating,Player rating") == true)
            let thru = rows.dropFirst().map { row in
                let cells = row.split(separator: ",", omittingEmptySubsequences: false)
                return cells.count >= 3 ? String(cells[cells.count - 3]) : ""
            }
            #expect(thru.allSatisfy { Int($0) != nil }, "every row says how many holes were played")
            #expect(rows.count == real.players.count + 1)
            let published = real.players.filter { !$0.dnf }.map(\.published_position).sorted()
            let exported = rows.dropFirst().map { String($0.split(separator: ",", omittingEmptySubsequences: false)[0]) }.filter { $0 != "DNF" }
                .sorted()
            #expect(exported == published)
        }
    }

    @Test func aBadFileIsRefusedWholeAndWritesNothing() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let detail = try await client.roundDetail(roundID)
            let handles = try #require(detail["players"] as? [[String: Any]]).compactMap { $0["handle"] as? String }
            let before = try await client.standings(roundID)["version"] as? Int
            // One good line, one unknown player, one impossible score: 422 naming both lines, nothing recorded.
            let csv = "handle,1,2\n\(handles[0]),3,3\nnobody,3,3\n\(handles[1]),3,120\n"
            let refused = try await Self.postCSV(client, "/api/v1/rounds/\(roundID)/results", csv)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Line 3") && refused.text.contains("Line 4, hole 2"))
            #expect(try await client.standings(roundID)["version"] as? Int == before)

            // A column for a hole the course does not have, or a hole twice: refused, not dropped.
            let offCourse = try await Self.postCSV(client, "/api/v1/rounds/\(roundID)/results", "handle,1,99\n\(handles[0]),3,3\n")
            #expect(offCourse.status == .unprocessableContent && offCourse.text.contains("99 is not a hole"))
            let twice = try await Self.postCSV(client, "/api/v1/rounds/\(roundID)/results", "handle,1,1\n\(handles[0]),3,4\n")
            #expect(twice.status == .unprocessableContent && twice.text.contains("more than one column"))
            #expect(try await client.standings(roundID)["version"] as? Int == before)
            // A spreadsheet's byte-order mark before the header is fine.
            let bom = try await Self.postCSV(client, "/api/v1/players/import", "\u{FEFF}Name,Handle\r\nBo Mark,bo.mark\r\n")
            #expect(bom.status == .created)

            // Not CSV: 415. A player list with one bad line: 422 and nobody created or renamed.
            let json = try await client.postJSON("/api/v1/rounds/\(roundID)/results", "{}")
            #expect(json.status == .unsupportedMediaType)
            let listed = try await client.get("/api/v1/players").text
            let bad = try await Self.postCSV(client, "/api/v1/players/import", "name,handle\nNew One,new.one\nRenamed,\(handles[0])\nBad,b a d\n")
            #expect(bad.status == .unprocessableContent)
            #expect(bad.text.contains("Line 4"), "the bad line is named: \(bad.text)")
            #expect(try await client.get("/api/v1/players").text == listed)
            // Re-imported without the bad line: the new handle is added, the known one renamed.
            let again = try await Self.postCSV(client, "/api/v1/players/import", "name,handle\nNew One,new.one\nRenamed,\(handles[0])\n")
            #expect(again.status == .created)
            let names = (try #require(try await client.get("/api/v1/players").json()["players"] as? [[String: Any]])).compactMap {
                $0["displayName"] as? String
            }
            #expect(names.contains("New One") && names.contains("Renamed"))
            let unchanged = try await Self.postCSV(client, "/api/v1/players/import", "name,handle\nRenamed,\(handles[0])\n")
            #expect(unchanged.status == .ok, "nothing new: 200")
            // Athletes import nothing.
            #expect(try await Self.postCSV(client.as(.athlete), "/api/v1/players/import", "name,handle\nX,x.y\n").status == .forbidden)
        }
    }

    @Test func anExportedNameThatLooksLikeAFormulaStaysText() async throws {
        try await withApp(seedDemo: false) { client in
            let player = try LeagueAPITests.object(
                await client.postJSON("/api/v1/players", #"{"displayName":"=HYPERLINK(\"x\")","handle":"formula"}"#))
            let course = try LeagueAPITests.object(await client.postJSON("/api/v1/courses", #"{"name":"C","holes":[{"number":1,"par":3}]}"#))
            let round = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/rounds", "{\"courseID\":\"\(course["id"] ?? "")\",\"players\":[{\"playerID\":\"\(player["id"] ?? "")\"}]}"))
            let export = try await client.get("/rounds/\(round["id"] ?? "")/results.csv").text
            #expect(export.contains("'=HYPERLINK"))
        }
    }
}
