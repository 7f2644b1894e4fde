import Foundation
import HTTPTypes
import HummingbirdTesting
import HyzerWeb
import Testing

/// Invite links point where phones can reach the server (`--public-url`), can be revoked, and
/// the club's name heads the pages and the TV.
@Suite struct InviteLinkTests {
    @Test func invitesUseThePublicAddressAndCanBeRevoked() async throws {
        try await withApp(configure: { $0.publicURL = "http://192.168.1.20:8080" }) { client in
            let coach = client.as(.coach)
            #expect(try await !coach.get("/invites").text.contains("only this machine can open"))
            let made = try await coach.postForm("/invites", [("role", "athlete")])
            #expect(made.status == .created)
            let link = try #require(made.text.firstMatch(of: /http:\/\/192\.168\.1\.20:8080\/join\?invite=([A-Za-z0-9_-]+)/))
            let token = String(link.1)
            let anonymous = client.as(.anonymous)
            #expect(try await anonymous.get("/join?invite=\(token)").status == .ok)

            let id = try #require(try await coach.get("/invites").text.firstMatch(of: /\/invites\/([0-9a-f-]{36})\/revoke/).map { String($0.1) })
            #expect(try await coach.postForm("/invites/\(id)/revoke", []).status == .seeOther)
            #expect(try await anonymous.get("/join?invite=\(token)").status == .forbidden, "a revoked link opens nothing")
            #expect(try await coach.postForm("/invites/\(id)/revoke", []).status == .notFound, "nothing open to revoke")
            #expect(try await client.as(.athlete).postForm("/invites/\(id)/revoke", []).status == .forbidden)
            // A coach cannot make an admin's invite, nor revoke one.
            #expect(try await client.as(.admin).postForm("/invites", [("role", "admin")]).status == .created)
            let adminInvite = try #require(
                try await client.as(.admin).get("/invites").text.firstMatch(of: /\/invites\/([0-9a-f-]{36})\/revoke/).map { String($0.1) })
            #expect(try await coach.postForm("/invites/\(adminInvite)/revoke", []).status == .notFound)
            #expect(try await client.as(.admin).postForm("/invites/\(adminInvite)/revoke", []).status == .seeOther)
        }
    }

    @Test func withoutAPublicAddressALoopbackLinkIsFlagged() async throws {
        try await withApp { client in
            let page = try await client.as(.coach).get("/invites").text
            #expect(page.contains("only this machine can open"))
            #expect(PublicAddress.isLoopback("http://localhost:8080") && PublicAddress.isLoopback("http://[::1]:8080"))
            #expect(!PublicAddress.isLoopback("https://scores.ourclub.org"))
            #expect(PublicAddress.parse("https://scores.ourclub.org/") == "https://scores.ourclub.org")
            #expect(PublicAddress.parse("ftp://x") == nil && PublicAddress.parse("http://x/path") == nil && PublicAddress.parse("scores.org") == nil)
            #expect(
                PublicAddress.parse("http://x:99999") == nil && PublicAddress.parse("http://x:0") == nil
                    && PublicAddress.parse("http://x:8080") == "http://x:8080")
        }
    }

    @Test func theClubNameHeadsEveryPageAndTheTV() async throws {
        try await withApp { client in
            #expect(
                try await client.as(.admin).postForm(
                    "/admin/settings", [("clubName", "Maple Disc Club"), ("tvPageSeconds", "10"), ("publicLeaderboards", "on")]
                ).status == .seeOther)
            for path in ["/", "/events", "/tv", "/signin"] {
                let page = try await client.as(.anonymous).get(path).text
                #expect(page.contains("Maple Disc Club"), "\(path)")
            }
        }
    }
}
