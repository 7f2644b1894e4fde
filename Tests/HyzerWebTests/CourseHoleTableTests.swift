import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The course's edit page: a row per hole instead of one line of numbers.
@Suite struct CourseHoleTableTests {
    private func holes(_ client: Client, _ id: String) async throws -> [[String: Any]] {
        let courses = try #require(try await client.get("/api/v1/courses").json()["courses"] as? [[String: Any]])
        let course = try #require(courses.first { $0["id"] as? String == id })
        return try #require(course["holes"] as? [[String: Any]])
    }

    private func course(_ client: Client) async throws -> String {
        let created = try LeagueAPITests.object(
            try await client.postJSON(
                "/api/v1/courses", #"{"name":"Birch Park","holes":[{"number":1,"par":3},{"number":2,"par":3},{"number":3,"par":3}]}"#))
        return try #require(created["id"] as? String)
    }

    @Test func theEditPageHasARowPerHoleAndSavesEachOne() async throws {
        try await withApp(seedDemo: false) { client in
            let id = try await course(client)
            let page = try await client.get("/courses/\(id)/edit").text
            #expect(page.components(separatedBy: #"name="par[]""#).count - 1 == 3)
            #expect(page.contains(#"aria-label="Par of hole 3""#))
            #expect(!page.contains(#"name="pars""#))

            let saved = try await client.postForm(
                "/courses/\(id)",
                [("name", "Birch Park"), ("holeCount", "3")] + ["3", "4", "5"].map { ("par[]", $0) } + ["80", "", "120"].map { ("distance[]", $0) })
            #expect(saved.status == .seeOther, "\(saved.text)")
            let holes = try await holes(client, id)
            #expect(holes.map { $0["par"] as? Int } == [3, 4, 5])
            #expect(holes.map { $0["distance"] as? Int } == [80, nil, 120])
            let again = try await client.get("/courses/\(id)/edit").text
            #expect(again.contains(#"name="par[]" value="5""#))
            #expect(again.contains(#"name="distance[]" value="120""#))
        }
    }

    @Test func aBadHoleIsNamedTheTypedRowsStayAndNothingIsWritten() async throws {
        try await withApp(seedDemo: false) { client in
            let id = try await course(client)
            let refused = try await client.postForm(
                "/courses/\(id)",
                [("name", "Birch Park"), ("holeCount", "3")] + ["4", "12", "3"].map { ("par[]", $0) } + ["", "", "x"].map { ("distance[]", $0) })
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Par for hole 2 must be a number from 2 to 8."))
            #expect(refused.text.contains("Distance for hole 3 must be a number of metres"))
            #expect(refused.text.contains(#"name="par[]" value="12""#))
            #expect(try await holes(client, id).map { $0["par"] as? Int } == [3, 3, 3])
        }
    }

    @Test func moreHolesThanRowsArePar3AndFewerDropTheLast() async throws {
        try await withApp(seedDemo: false) { client in
            let id = try await course(client)
            let rows = ["4", "5", "3"].map { ("par[]", $0) }
            #expect(try await client.postForm("/courses/\(id)", [("name", "Birch Park"), ("holeCount", "5")] + rows).status == .seeOther)
            #expect(try await holes(client, id).map { $0["par"] as? Int } == [4, 5, 3, 3, 3])
            #expect(try await client.postForm("/courses/\(id)", [("name", "Birch Park"), ("holeCount", "2")] + rows).status == .seeOther)
            #expect(try await holes(client, id).map { $0["par"] as? Int } == [4, 5])
        }
    }

    @Test func theAPIAcceptsHolesWithAndWithoutADistance() async throws {
        try await withApp(seedDemo: false) { client in
            let created = try LeagueAPITests.object(
                try await client.postJSON(
                    "/api/v1/courses", #"{"name":"Half measured","holes":[{"number":1,"par":3,"distance":90},{"number":2,"par":4}]}"#))
            let id = try #require(created["id"] as? String)
            #expect(try await holes(client, id).map { $0["distance"] as? Int } == [90, nil])
        }
    }
}
