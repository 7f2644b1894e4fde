import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Editing and removing through the JSON API, as `../shared/DESIGN.md` names the calls: each
/// validated like creating, answering the object as it now is; removals 204 or 200 archived.
@Suite struct EditingAPITests {
    @Test func aDirectorFixesANameAParAndAddsALateArrival() async throws {
        try await withApp { client in
            let coach = client.as(.coach)
            let roundID = try await client.demoRoundID()
            let detail = try await client.roundDetail(roundID)
            let courseID = try #require((try await client.get("/api/v1/courses").json()["courses"] as? [[String: Any]])?.first?["id"] as? String)
            let player = try #require(detail.playerIDs().first)

            let renamed = try await coach.postJSON("/api/v1/players/\(player)", #"{"displayName":"Ann Leigh"}"#, method: .patch)
            #expect(renamed.status == .ok, "\(renamed.text)")
            #expect(try renamed.json()["displayName"] as? String == "Ann Leigh")
            let standings = try await client.get("/api/v1/rounds/\(roundID)/standings").text
            #expect(standings.contains("Ann Leigh"), "the board reads the new name")
            let usual = try await coach.postJSON("/api/v1/players/\(player)", #"{"division":"FPO"}"#, method: .patch)
            #expect(try usual.json()["division"] as? String == "FPO")
            #expect(try await coach.postJSON("/api/v1/players/\(player)", #"{"division":"F/P"}"#, method: .patch).status == .unprocessableContent)
            #expect(
                try await coach.postJSON("/api/v1/players/\(player)", #"{"division":""}"#, method: .patch).json()["division"] == nil, "\"\" clears it"
            )

            let holes = (1...18).map { #"{"number":\#($0),"par":\#($0 == 1 ? 4 : 3)}"# }.joined(separator: ",")
            let course = try await coach.postJSON("/api/v1/courses/\(courseID)", #"{"holes":[\#(holes)]}"#, method: .patch)
            #expect(course.status == .ok, "\(course.text)")
            let fewer = try await coach.postJSON("/api/v1/courses/\(courseID)", #"{"holes":[{"number":1,"par":3}]}"#, method: .patch)
            #expect(fewer.status == .conflict, "scored rounds keep their number of holes")
            let badPar = try await coach.postJSON("/api/v1/courses/\(courseID)", #"{"holes":[{"number":1,"par":11}]}"#, method: .patch)
            #expect(badPar.status == .unprocessableContent)
            let nothing = try await coach.postJSON("/api/v1/courses/\(courseID)", "{}", method: .patch)
            #expect(nothing.status == .unprocessableContent)

            let late = try await coach.postJSON("/api/v1/players", #"{"displayName":"Late Larry","handle":"larry"}"#).json()
            let lateID = try #require(late["id"] as? String)
            let added = try await coach.postJSON("/api/v1/rounds/\(roundID)/players", #"{"playerID":"\#(lateID)"}"#)
            #expect(added.status == .created, "\(added.text)")
            #expect(try added.json().playerIDs().contains(lateID))
            let again = try await coach.postJSON("/api/v1/rounds/\(roundID)/players", #"{"playerID":"\#(lateID)"}"#)
            #expect(again.status == .conflict)
            let athlete = try await client.as(.athlete).postJSON("/api/v1/rounds/\(roundID)/players", #"{"playerID":"\#(lateID)"}"#)
            #expect(athlete.status == .forbidden)

            // Withdrawn before scoring: out of the round; then deleted outright (nothing refers to him).
            let withdrawn = try await coach.execute(uri: "/api/v1/rounds/\(roundID)/players/\(lateID)", method: .delete)
            #expect(withdrawn.status == .ok)
            #expect(try !withdrawn.json().playerIDs().contains(lateID))
            #expect(try await coach.execute(uri: "/api/v1/players/\(lateID)", method: .delete).status == .noContent)
            #expect(try await coach.execute(uri: "/api/v1/players/\(lateID)", method: .delete).status == .notFound)
        }
    }

    @Test func completeReopenAndArchive() async throws {
        try await withApp { client in
            let coach = client.as(.coach)
            let roundID = try await client.demoRoundID()
            #expect(try await coach.postJSON("/api/v1/rounds/\(roundID)/reopen", "{}").status == .conflict, "only a completed round reopens")
            #expect(try await coach.postJSON("/api/v1/rounds/\(roundID)/complete", "{}").status == .ok)
            let dnf = try await client.get("/api/v1/rounds/\(roundID)/standings").json()["standings"] as? [[String: Any]]
            #expect(dnf?.allSatisfy { $0["dnf"] as? Bool == true } == true, "the demo's players all have holes left")
            let reopened = try await coach.postJSON("/api/v1/rounds/\(roundID)/reopen", "{}")
            #expect(reopened.status == .ok)
            #expect(try reopened.json()["status"] as? String == "active")
            let back = try await client.get("/api/v1/rounds/\(roundID)/standings").json()["standings"] as? [[String: Any]]
            #expect(back?.allSatisfy { $0["dnf"] as? Bool == false } == true, "reopening restores them")

            let archived = try await coach.execute(uri: "/api/v1/rounds/\(roundID)", method: .delete)
            #expect(archived.status == .ok)
            #expect(try archived.json()["archived"] as? Bool == true)
            #expect((try await client.get("/api/v1/rounds").json()["rounds"] as? [Any])?.isEmpty == true)
            #expect(try await !client.as(.anonymous).get("/tv").text.contains("Ann Lee"), "an archived round is off the TV")
            #expect(try await client.get("/api/v1/rounds/\(roundID)/standings").status == .ok, "its results stay")
        }
    }
}
