import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Importing a club's sheet with PDGA numbers, emails, ratings and divisions (#37, item 11):
/// the API and the page read them; unknown columns come back named; emails reach coaches' pages
/// and nobody's API.
@Suite struct PlayerImportColumnsTests {
    @Test func theSheetsColumnsReachThePlayers() async throws {
        try await withApp(seedDemo: false) { client in
            let sheet = """
                Name,Handle,PDGA Number,Email,Rating,Division,Phone
                Ann Lee,ann.lee,123456,ann@example.org,912,FPO,555
                Ben Ortiz,ben,,,,MPO,

                """
            let imported = try LeagueAPITests.object(try await CSVTests.postCSV(client, "/api/v1/players/import", sheet))
            #expect(imported["ignoredColumns"] as? [String] == ["Phone"])
            let players = try #require(imported["players"] as? [[String: Any]])
            let ann = try #require(players.first { $0["handle"] as? String == "ann.lee" })
            #expect(ann["pdgaNumber"] as? Int == 123_456 && ann["division"] as? String == "FPO")
            #expect(ann["email"] == nil, "no email in the API")
            let annID = try #require(ann["id"] as? String)
            let ratings = try await client.get("/api/v1/players/\(annID)/ratings").json()
            #expect(ratings["enteredRating"] as? Int == 912)
            let listed = try await client.as(.anonymous).get("/api/v1/players").text
            #expect(!listed.contains("ann@example.org"))
            // A coach sees and edits it on the player's page.
            #expect(try await client.get("/players/\(annID)/edit").text.contains(#"value="ann@example.org""#))

            // Again with a blank PDGA cell: it changes nothing; a new rating updates.
            let again = try await CSVTests.postCSV(client, "/api/v1/players/import", "name,handle,pdga,rating\nAnn Lee,ann.lee,,930\n")
            #expect(again.status == .ok)
            let after = try #require((try again.json()["players"] as? [[String: Any]])?.first)
            #expect(after["pdgaNumber"] as? Int == 123_456)
            #expect(try await client.get("/api/v1/players/\(annID)/ratings").json()["enteredRating"] as? Int == 930)

            // Through the page: the notice names the columns it did not read.
            let page = try await client.postForm("/players/import", [("csv", "name,handle,Shirt\nCy,cy,L\n")])
            #expect(page.status == .seeOther)
            let location = try #require(page.headers[.location])
            #expect(try await client.get(location).text.contains("Columns not read (Hyzer keeps no such field): Shirt."))

            // A bad cell refuses the file, named by line.
            let bad = try await CSVTests.postCSV(client, "/api/v1/players/import", "name,handle,email\nDee,dee,not-an-email\n")
            #expect(bad.status == .unprocessableContent && bad.text.contains("Line 2: not-an-email is not an email address"))
        }
    }

    @Test func savingAPlayerUnchangedWritesNoAuditLine() async throws {
        try await withApp(seedDemo: false) { client in
            let player = try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"Una","handle":"una"}"#))
            let id = try #require(player["id"] as? String)
            let fields = [("displayName", "Una"), ("handle", "una"), ("division", ""), ("rating", ""), ("pdgaNumber", "77"), ("email", "")]
            #expect(try await client.postForm("/players/\(id)", fields).status == .seeOther)
            #expect(try await client.postForm("/players/\(id)", fields).status == .seeOther)
            // A course and an event saved as they are: nothing to log either.
            let course = try LeagueAPITests.object(await client.postJSON("/api/v1/courses", #"{"name":"Pine","holes":[{"number":1,"par":3}]}"#))
            let event = try LeagueAPITests.object(await client.postJSON("/api/v1/events", #"{"name":"Night","divisions":["MPO"]}"#))
            for _ in 0..<2 {
                #expect(
                    try await client.postJSON(
                        "/api/v1/courses/\(course["id"] ?? "")", #"{"name":"Pine","holes":[{"number":1,"par":3}]}"#, method: .patch
                    ).status == .ok)
                #expect(
                    try await client.postJSON("/api/v1/events/\(event["id"] ?? "")", #"{"name":"Night","divisions":["MPO"]}"#, method: .patch).status
                        == .ok)
            }
            let log = try await client.as(.admin).get("/admin").text
            #expect(!log.contains("saved unchanged"))
            #expect(log.components(separatedBy: "PDGA number 77").count == 2, "one line for the one change")
        }
    }
}
