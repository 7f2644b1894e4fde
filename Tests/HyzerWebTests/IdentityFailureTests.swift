import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import HyzerWeb

/// "Could not read who you are" is not "nobody": with the players table of the real
/// `domain.sqlite` out of reach, a signed-in browser gets 503 "try again" on pages and in the
/// API, and keeps its session; once the table is back the same cookie works.
@Suite struct IdentityFailureTests {
    /// Moves the players table out of the way (or back) from another connection to the file,
    /// as a failing disk or a locked schema would make every read of it fail.
    static func players(_ directory: URL, away: Bool) throws {
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("domain.sqlite").path)
        try queue.write { db in
            try db.execute(sql: away ? "ALTER TABLE players RENAME TO players_away" : "ALTER TABLE players_away RENAME TO players")
        }
        try queue.close()
    }

    @Test func aFailedReadOfWhoIsAskingAnswers503AndNeverEndsTheSession() async throws {
        try await withApp { client in
            let (cookie, _) = try await AccountTests.signIn(client, client.users.athlete)
            let anonymous = client.as(.anonymous)
            #expect(try await anonymous.get("/", headers: [.cookie: cookie]).text.contains("Sign out @\(client.users.athlete.handle)"))
            // A player changed since: identities are read from the file again, not from memory.
            #expect(try await client.postJSON("/api/v1/players", #"{"displayName":"Fresh","handle":"fresh"}"#).status == .created)

            try Self.players(client.users.directory, away: true)
            let page = try await anonymous.get("/", headers: [.cookie: cookie])
            #expect(page.status == .serviceUnavailable)
            #expect(page.text.contains("You are still signed in"))
            #expect(page.headers[.retryAfter] == "2")
            #expect(!page.headers[values: .setCookie].contains { $0.hasPrefix("hyzer_session=") }, "the session cookie is left alone")
            let api = try await anonymous.get("/api/v1/sync", headers: [.cookie: cookie])
            #expect(api.status == .serviceUnavailable)
            #expect(try api.json()["type"] as? String == "/problems/unavailable")

            try Self.players(client.users.directory, away: false)
            let back = try await anonymous.get("/", headers: [.cookie: cookie])
            #expect(back.status == .ok)
            #expect(back.text.contains("Sign out @\(client.users.athlete.handle)"))
        }
    }
}
