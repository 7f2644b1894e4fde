import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import HyzerWeb

/// A league night's check-in link and QR code: shown (on the event page and the TV) and
/// followed only while a coach has check-in open and the night is not over.
@Suite struct CheckInLinkTests {
    @Test func theLinkWorksWhileCheckInIsOpenAndTheNightIsNotOver() async throws {
        try await withApp(seedDemo: false) { client in
            let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"Tuesday league","divisions":["MPO"]}"#))
            let seasonID = try #require(season["id"] as? String)
            let night = try LeagueAPITests.object(
                await client.postJSON("/api/v1/events", #"{"name":"Week 3","divisions":["MPO"],"seasonID":"\#(seasonID)"}"#))
            let eventID = try #require(night["id"] as? String)
            let link = try #require(night["checkInLink"] as? String)
            #expect(link == "/c/\(eventID.prefix(8))" && night["checkInOpen"] as? Bool == false)

            // Closed: the link says so; nothing is shown.
            #expect(try await client.as(.anonymous).get(link).status == .gone)
            #expect(try await !client.get("/events/\(eventID)").text.contains("checkin.svg"))
            #expect(try await !client.get("/tv").text.contains("Check in for Week 3"))

            // A coach opens it on the page (an athlete may not).
            #expect(try await client.as(.athlete).postForm("/events/\(eventID)/checkin-open", [("open", "1")]).status == .forbidden)
            let opened = try await client.postForm("/events/\(eventID)/checkin-open", [("open", "1")])
            #expect(opened.status == .seeOther)
            let page = try await client.get("/events/\(eventID)").text
            #expect(page.contains(#"<img src="/events/\#(eventID)/checkin.svg""#) && page.contains("\(link)</a>") && page.contains("Close check-in"))
            let anonymousPage = try await client.as(.anonymous).get("/events/\(eventID)").text
            #expect(anonymousPage.contains(#"href="/signin?next=/events/\#(eventID)""#), "a phone that is not signed in is asked to")
            let followed = try await client.as(.anonymous).get(link)
            #expect(followed.status == .seeOther && followed.headers[.location] == "/events/\(eventID)#check-in-heading")
            #expect(try await client.get("/api/v1/events/\(eventID)").json()["checkInOpen"] as? Bool == true)

            let code = try await client.as(.anonymous).get("/events/\(eventID)/checkin.svg")
            #expect(code.status == .ok && code.headers[.contentType] == "image/svg+xml" && code.text.hasPrefix("<svg"))
            let tv = try await client.as(.anonymous).get("/tv").text
            #expect(tv.contains("Check in for Week 3") && tv.contains("/c/\(eventID.prefix(8))"))

            // Codes of no night name nothing.
            #expect(try await client.get("/c/\(eventID.prefix(8).uppercased())").status == .seeOther, "typed in capitals off the TV")
            for bad in ["/c/\(eventID.prefix(7))", "/c/zzzzzzzz", "/c/\(eventID.prefix(9))"] {
                #expect(try await client.get(bad).status == .notFound, "\(bad)")
            }

            // Closed through the API, then open again until the night's round is completed.
            let closed = try await client.postJSON("/api/v1/events/\(eventID)", #"{"checkInOpen":false}"#, method: .patch)
            let closedBody = try closed.json()
            #expect(closed.status == .ok && closedBody["checkInOpen"] as? Bool == false)
            #expect(try await client.get(link).status == .gone)
            #expect(try await client.postJSON("/api/v1/events/\(eventID)", #"{"checkInOpen":true}"#, method: .patch).status == .ok)
            let course = try LeagueAPITests.object(await client.postJSON("/api/v1/courses", #"{"name":"One","holes":[{"number":1,"par":3}]}"#))
            let me = client.users.coach.playerID.uuidString.lowercased()
            let round = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/rounds",
                    #"{"courseID":"\#(course["id"] ?? "")","eventID":"\#(eventID)","start":true,"players":[{"playerID":"\#(me)","division":"MPO"}]}"#)
            )
            let roundID = try #require(round["id"] as? String)
            #expect(try await client.get(link).status == .seeOther, "a night under way still takes late check-ins")
            #expect(try await client.postJSON("/api/v1/rounds/\(roundID)/complete", "{}").status == .ok)
            #expect(try await client.get(link).status == .gone, "the night is over")
            #expect(try await !client.get("/events/\(eventID)").text.contains("Close check-in"))
            // Refused whole: a rename sent with it is not half-applied.
            let both = try await client.postJSON("/api/v1/events/\(eventID)", #"{"name":"Renamed","checkInOpen":true}"#, method: .patch)
            #expect(both.status == .conflict)
            #expect(try await client.get("/api/v1/events/\(eventID)").json()["name"] as? String == "Week 3")
        }
    }
}
