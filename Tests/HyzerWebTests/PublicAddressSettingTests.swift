import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// The public address is set in the browser (#37, item 7): on /admin, checked, then every
/// check-in and invite link and the TV start with it; `--public-url` wins and says so.
@Suite struct PublicAddressSettingTests {
    @Test func anAdminSetsTheAddressPhonesOpen() async throws {
        try await withApp(seedDemo: false) { client in
            let admin = client.as(.admin)
            let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"League","divisions":["MPO"]}"#))
            let night = try LeagueAPITests.object(
                await client.postJSON(
                    "/api/v1/events", #"{"name":"Week 1","divisions":["MPO"],"seasonID":"\#(season["id"] ?? "")","checkInOpen":true}"#))
            let eventID = try #require(night["id"] as? String)
            #expect(try await client.postJSON("/api/v1/events/\(eventID)", #"{"checkInOpen":true}"#, method: .patch).status == .ok)

            let page = try await admin.get("/admin").text
            #expect(page.contains(#"<input name="publicURL" value="""#) && page.contains("No public address is set"))
            let fields = [("clubName", "Pine Club"), ("tvPageSeconds", "10"), ("publicLeaderboards", "1")]
            let bad = try await admin.postForm("/admin/settings", fields + [("publicURL", "phones.example/path")])
            #expect(bad.status == .unprocessableContent && bad.text.contains("is not an address phones can open"))
            #expect(try await admin.postForm("/admin/settings", fields + [("publicURL", "http://192.168.1.20:8080/")]).status == .seeOther)

            let set = try await admin.get("/admin").text
            #expect(set.contains(#"value="http://192.168.1.20:8080""#) && !set.contains("No public address is set"))
            let event = try await client.get("/events/\(eventID)").text
            #expect(event.contains(#"<a href="http://192.168.1.20:8080/c/\#(eventID.prefix(8))">"#) && !event.contains("Phones cannot open"))
            #expect(try await client.as(.anonymous).get("/tv").text.contains("http://192.168.1.20:8080</span>/c/"))
            let invite = try await admin.postForm("/invites", [("role", "athlete"), ("playerID", "")])
            #expect(invite.text.contains("http://192.168.1.20:8080/join?invite="))

            // Blank clears it: links use the address the page was opened at again.
            #expect(try await admin.postForm("/admin/settings", fields + [("publicURL", "")]).status == .seeOther)
            #expect(try await client.get("/events/\(eventID)").text.contains("Phones cannot open"))
        }
    }

    @Test func theFlagWinsAndTheFieldIsNotOffered() async throws {
        try await withApp(seedDemo: false, configure: { $0.publicURL = "https://scores.club.example" }) { client in
            let page = try await client.as(.admin).get("/admin").text
            #expect(!page.contains(#"name="publicURL""#))
            #expect(page.contains("<strong>https://scores.club.example</strong>, set with <code>--public-url</code>"))
        }
    }
}
