import Foundation
import HTTPTypes
import HummingbirdTesting
import HyzerCore
import NIOCore
import Testing

@testable import HyzerStore
@testable import HyzerWeb

/// The second attacker's pass (#36), each finding crafted as the attacker did it through the
/// API and the pages; every test fails with its fix taken out.
@Suite struct SecondAttackerPassTests {
    /// A second athlete with an account and an API token: the card-mate.
    static func cardMate(_ client: Client) async throws -> (id: String, headers: HTTPFields) {
        let accounts = Accounts(stores: try await Stores(directory: client.users.directory), cost: 4)
        let player = try await accounts.createUser(displayName: "Bea Second", handle: "bea.second", role: .athlete, password: "bea password 123")
        let token = try await accounts.issueToken(handle: "bea.second", name: "tests")
        return (player.id.lowercasedText, [.authorization: "Bearer \(token)"])
    }

    /// An active one-hole round of the athlete and `mate` on one card.
    static func card(_ client: Client, mate: String) async throws -> (round: String, card: String) {
        let made = try await CardEntriesAPITests.card(client, pars: [3], startingHole: 1, other: mate)
        return (made.round, made.card)
    }

    /// Entries sent through the phone's outbox route as `author` (the athlete unless
    /// `headers` name someone else), and what became of each.
    static func send(
        _ client: Client, _ round: String, _ card: String, author: UUID, _ entries: [(player: String, strokes: Int)], headers: HTTPFields = [:]
    ) async throws -> [String?] {
        let body = CardEntriesAPITests.batch(author: author, entries.map { (UUID(), $0.player, 1, $0.strokes) })
        let sender = headers.isEmpty ? client.as(.athlete) : client.as(.anonymous)
        return try outcomes(await sender.postJSON("/api/v1/rounds/\(round)/cards/\(card)/scores", body, headers: headers))
    }

    static func outcomes(_ response: TestResponse) throws -> [String?] {
        #expect(response.status == .ok, "\(response.text)")
        return (try response.json()["results"] as? [[String: Any]])?.map { $0["outcome"] as? String } ?? []
    }

    // MARK: 1. Only a coach decides a hole

    @Test func aCardMateCannotLockAnotherPlayersHole() async throws {
        try await withApp(seedDemo: false) { client in
            let (mate, mateHeaders) = try await Self.cardMate(client)
            let (round, card) = try await Self.card(client, mate: mate)
            let me = client.users.athlete.playerID
            let mateID = try #require(UUID(uuidString: mate))
            // The athlete enters the card-mate's hole 1 as 8, then corrects it to 9.
            #expect(try await Self.send(client, round, card, author: me, [(mate, 8)]) == ["recorded"])
            #expect(try await Self.send(client, round, card, author: me, [(mate, 9)]) == ["recorded"])
            // The card-mate's own 3 stands beside it as a mismatch, through either route.
            #expect(try await Self.send(client, round, card, author: mateID, [(mate, 3)], headers: mateHeaders) == ["recorded"])
            let hole = try await client.as(.anonymous).postJSON(
                "/api/v1/rounds/\(round)/cards/\(card)/holes/1", #"{"scores":[{"playerID":"\#(mate)","strokes":4}]}"#, headers: mateHeaders)
            #expect(hole.status == .ok || hole.status == .created, "\(hole.text)")
            let conflicts = try await client.get("/api/v1/rounds/\(round)/standings").json()["conflicts"] as? [[String: Any]]
            #expect(conflicts?.contains { $0["playerID"] as? String == mate && $0["hole"] as? Int == 1 } == true, "a mismatch for the card")
        }
    }

    @Test func aCheaterCorrectingTheirOwnHoleCannotShutOutTheCardAndSign() async throws {
        try await withApp(seedDemo: false) { client in
            let (mate, mateHeaders) = try await Self.cardMate(client)
            let (round, card) = try await Self.card(client, mate: mate)
            let athlete = client.as(.athlete)
            let me = client.users.athlete.playerID
            let mine = me.lowercasedText
            #expect(try await Self.send(client, round, card, author: me, [(mine, 3)]) == ["recorded"])
            #expect(try await Self.send(client, round, card, author: me, [(mine, 1)]) == ["recorded"])
            let mateID = try #require(UUID(uuidString: mate))
            let honest = try await Self.send(client, round, card, author: mateID, [(mine, 3)], headers: mateHeaders)
            #expect(honest == ["recorded"], "the honest card-mate's entry is kept")
            let sign = try await athlete.postJSON("/api/v1/rounds/\(round)/signatures", #"{"playerID":"\#(me.lowercasedText)"}"#)
            #expect(sign.status == .conflict, "a card with a mismatch is not signed: \(sign.text)")
            // A coach's correction decides; the card-mate's differing entry is then refused.
            let events = try await client.get("/api/v1/rounds/\(round)/scores").json()["events"] as? [[String: Any]] ?? []
            let current = try #require(
                events.first { $0["playerID"] as? String == me.lowercasedText && $0["current"] as? Bool == true }?["id"] as? String)
            let decided = try await client.postJSON(
                "/api/v1/rounds/\(round)/scores", #"{"playerID":"\#(me.lowercasedText)","hole":1,"strokes":3,"supersedes":"\#(current)"}"#)
            #expect(decided.status == .created, "\(decided.text)")
            #expect(try await Self.send(client, round, card, author: me, [(mine, 1)]) == ["refused"])
        }
    }

    // MARK: 9. The nil UUID is nobody's score id

    @Test func theNilUUIDIsRefusedAsAScoreOrEntryID() async throws {
        try await withApp(seedDemo: false) { client in
            let (mate, _) = try await Self.cardMate(client)
            let (round, card) = try await Self.card(client, mate: mate)
            let me = client.users.athlete.playerID
            let entry = try await client.as(.athlete).postJSON(
                "/api/v1/rounds/\(round)/cards/\(card)/scores", CardEntriesAPITests.batch(author: me, [(UUID.zero, mate, 1, 3)]))
            #expect(entry.status == .unprocessableContent, "\(entry.text)")
            let score = try await client.postJSON(
                "/api/v1/rounds/\(round)/scores", #"{"id":"00000000-0000-0000-0000-000000000000","playerID":"\#(mate)","hole":1,"strokes":3}"#)
            #expect(score.status == .unprocessableContent, "\(score.text)")
            let events = try await client.get("/api/v1/rounds/\(round)/scores").json()["events"] as? [[String: Any]]
            #expect(events?.isEmpty == true)
        }
    }

    // MARK: 6. A withdrawn player keeps no score

    @Test func aWithdrawnPlayerCannotScoreTheirCardMates() async throws {
        try await withApp(seedDemo: false) { client in
            let (mate, _) = try await Self.cardMate(client)
            let (round, card) = try await Self.card(client, mate: mate)
            let me = client.users.athlete.playerID
            // Withdrawn after scoring a hole, so they stay on the round and the card (as a DNF).
            let own = try await client.as(.athlete).postJSON(
                "/api/v1/rounds/\(round)/cards/\(card)/scores", CardEntriesAPITests.batch(author: me, [(UUID(), me.lowercasedText, 1, 3)]))
            #expect(try Self.outcomes(own) == ["recorded"])
            #expect(try await client.execute(uri: "/api/v1/rounds/\(round)/players/\(me.lowercasedText)", method: .delete).status.code < 300)
            let sent = try await client.as(.athlete).postJSON(
                "/api/v1/rounds/\(round)/cards/\(card)/scores", CardEntriesAPITests.batch(author: me, [(UUID(), mate, 1, 3)]))
            #expect(try Self.outcomes(sent) == ["refused"])
            #expect((try sent.json()["results"] as? [[String: Any]])?.first?["reason"] as? String ?? "" != "")
            let hole = try await client.as(.athlete).postJSON(
                "/api/v1/rounds/\(round)/cards/\(card)/holes/1", #"{"scores":[{"playerID":"\#(mate)","strokes":3}]}"#)
            #expect(hole.status == .conflict, "\(hole.text)")
            let events = try await client.get("/api/v1/rounds/\(round)/scores").json()["events"] as? [[String: Any]]
            #expect(events?.count == 1, "only their own hole, from before they withdrew")
        }
    }

    // MARK: 3. The fee ledger is kept

    /// A league night (no rounds) with a walk-up who paid.
    static func nightWithAPaidWalkUp(_ client: Client) async throws -> (event: String, player: String) {
        let object = LeagueAPITests.object
        let event = try #require(
            try object(await client.postJSON("/api/v1/events", #"{"name":"Tuesday","divisions":[]}"#), .created)["id"] as? String)
        let walkUp = try object(
            await client.postJSON("/api/v1/events/\(event)/checkins", #"{"walkUp":{"displayName":"Wally Walkup"},"paid":true}"#), .created)
        return (event, try #require(walkUp["playerID"] as? String))
    }

    static func ledger(_ client: Client, _ event: String) async throws -> [[String: Any]] {
        let fees = try await client.get("/api/v1/events/\(event)/fees")
        #expect(fees.status == .ok, "\(fees.text)")
        return try fees.json()["payments"] as? [[String: Any]] ?? []
    }

    @Test func removingAPayerOrANightKeepsTheLedger() async throws {
        try await withApp(seedDemo: false) { client in
            let (event, player) = try await Self.nightWithAPaidWalkUp(client)
            let removed = try await client.execute(uri: "/api/v1/players/\(player)", method: .delete)
            let removal = try removed.json()
            #expect(removed.status == .ok && removal["archived"] as? Bool == true, "archived, not deleted: \(removed.text)")
            let entries = try await Self.ledger(client, event)
            #expect(entries.map { $0["displayName"] as? String } == ["Wally Walkup"])
            let list = try await client.get("/api/v1/events/\(event)/checkins").json()["checkins"] as? [[String: Any]]
            #expect(list?.map { $0["displayName"] as? String } == ["Wally Walkup"], "still on the night's list")
            let page = try await client.get("/events/\(event)").text
            #expect(page.contains("Wally Walkup paid"), "the fee log names the payer")

            let night = try await client.execute(uri: "/api/v1/events/\(event)", method: .delete)
            let nightRemoval = try night.json()
            #expect(night.status == .ok && nightRemoval["archived"] as? Bool == true, "\(night.text)")
            #expect(try await Self.ledger(client, event).count == 1, "the night's fees stay readable")
        }
    }

    @Test func checkingInAgainKeepsTheFeeTheLedgerSays() async throws {
        try await withApp(seedDemo: false) { client in
            let object = LeagueAPITests.object
            let event = try #require(
                try object(await client.postJSON("/api/v1/events", #"{"name":"Tuesday","divisions":[]}"#), .created)["id"] as? String)
            let me = client.users.athlete.playerID.lowercasedText
            let athlete = client.as(.athlete)
            _ = try object(await athlete.postJSON("/api/v1/events/\(event)/checkins", #"{"playerID":"\#(me)"}"#), .created)
            _ = try object(await client.postJSON("/api/v1/events/\(event)/checkins", #"{"playerID":"\#(me)","paid":true}"#), .ok)
            #expect(try await athlete.execute(uri: "/api/v1/events/\(event)/checkins/\(me)", method: .delete).status == .noContent)
            let again = try object(await athlete.postJSON("/api/v1/events/\(event)/checkins", #"{"playerID":"\#(me)"}"#), .created)
            #expect(again["paid"] as? Bool == true, "the fee paid before the undo stands")
            let entries = try await Self.ledger(client, event)
            #expect(entries.last?["paid"] as? Bool == true && entries.count == 1)
            // A coach recording not paid on a check-in made again writes it to the ledger.
            #expect(try await client.execute(uri: "/api/v1/events/\(event)/checkins/\(me)", method: .delete).status == .noContent)
            _ = try object(await client.postJSON("/api/v1/events/\(event)/checkins", #"{"playerID":"\#(me)","paid":false}"#), .created)
            #expect(try await Self.ledger(client, event).map { $0["paid"] as? Bool } == [true, false])
        }
    }

    // MARK: 7. Who paid is the coaches' business

    @Test func thePublicSeesHowManyPaidNotWho() async throws {
        try await withApp(seedDemo: false) { client in
            let (event, walkUp) = try await Self.nightWithAPaidWalkUp(client)
            let me = client.users.athlete.playerID.lowercasedText
            _ = try LeagueAPITests.object(await client.as(.athlete).postJSON("/api/v1/events/\(event)/checkins", #"{"playerID":"\#(me)"}"#), .created)
            func list(_ who: Who) async throws -> [String: Any] {
                try await client.as(who).get("/api/v1/events/\(event)/checkins").json()
            }
            let public_ = try await list(.anonymous)
            #expect(public_["paid"] as? Int == 1, "the count is public")
            #expect((public_["checkins"] as? [[String: Any]])?.allSatisfy { $0["paid"] == nil } == true, "\(public_)")
            let own = try await list(.athlete)["checkins"] as? [[String: Any]] ?? []
            #expect(own.first { $0["playerID"] as? String == me }?["paid"] as? Bool == false, "a player sees their own")
            #expect(own.first { $0["playerID"] as? String == walkUp }?["paid"] == nil, "and nobody else's")
            let coach = try await list(.coach)["checkins"] as? [[String: Any]] ?? []
            #expect(coach.first { $0["playerID"] as? String == walkUp }?["paid"] as? Bool == true)
            let page = try await client.as(.anonymous).get("/events/\(event)").text
            #expect(page.contains("1 paid the entry fee") && !page.contains(">paid</span>"), "the page: a count, no badges")
            #expect(try await client.get("/events/\(event)").text.contains(">paid</span>"), "a coach sees who")
        }
    }

    // MARK: 5. Entering a rating follows the player rules

    @Test func aRatingIsEnteredOnlyWhereThePlayerCouldBeEdited() async throws {
        try await withApp(seedDemo: false) { client in
            let admin = client.users.admin.playerID.lowercasedText
            let put = try await client.execute(
                uri: "/api/v1/players/\(admin)/rating", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"rating":900}"#))
            #expect(put.status == .forbidden, "a coach manages no admin: \(put.text)")
            let patch = try await client.execute(
                uri: "/api/v1/players/\(admin)", method: .patch, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"displayName":"X"}"#))
            #expect(patch.status == put.status)
            let created = try LeagueAPITests.object(await client.postJSON("/api/v1/players", #"{"displayName":"Gone","handle":"gone"}"#), .created)
            let gone = try #require(created["id"] as? String)
            let course = try LeagueAPITests.object(
                await client.postJSON("/api/v1/courses", #"{"name":"C","holes":[{"number":1,"par":3}]}"#), .created)
            _ = try LeagueAPITests.object(
                await client.postJSON("/api/v1/rounds", #"{"courseID":"\#(course["id"] ?? "")","players":[{"playerID":"\#(gone)"}]}"#), .created)
            #expect(try await client.execute(uri: "/api/v1/players/\(gone)", method: .delete).status == .ok)
            let archived = try await client.execute(
                uri: "/api/v1/players/\(gone)/rating", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"rating":900}"#))
            #expect(archived.status == .notFound, "\(archived.text)")
        }
    }
}
