import Foundation
import HTTPTypes
import HummingbirdTesting
import HyzerCore
import HyzerStore
import Testing

/// Signing with the whole card in view, refusals in words, who entered what on the correction
/// page with a coach's one-tap decision, and "changed after signing" as its own mark.
@Suite struct SigningReviewTests {
    /// A 3-hole round of the athlete and two demo players on one card.
    static func cardRound(_ client: Client) async throws -> (round: String, card: String, players: [String]) {
        let course = try await client.postJSON(
            "/api/v1/courses", #"{"name":"Three","holes":[{"number":1,"par":3},{"number":2,"par":4},{"number":3,"par":3}]}"#
        ).json()
        let demo = try await client.roundDetail(try await client.demoRoundID()).playerIDs()
        let players = [client.users.athlete.playerID.lowercasedText, demo[1], demo[2]]
        let entries = players.map { #"{"playerID":"\#($0)"}"# }.joined(separator: ",")
        let round = try await client.postJSON(
            "/api/v1/rounds", #"{"courseID":"\#(course["id"] as? String ?? "")","name":"Night","players":[\#(entries)]}"#
        ).json()
        let roundID = try #require(round["id"] as? String)
        let ids = players.map { "\"\($0)\"" }.joined(separator: ",")
        let cards = try await client.postJSON(
            "/api/v1/rounds/\(roundID)/cards", #"{"cards":[{"name":"Card 1","startingHole":1,"playerIDs":[\#(ids)]}]}"#
        ).json()
        let card = try #require((cards["cards"] as? [[String: Any]])?.first?["id"] as? String)
        return (roundID, card, players)
    }

    static func hole(_ client: Client, _ round: String, _ card: String, _ hole: Int, _ players: [String], _ strokes: [Int]) async throws {
        let scores = zip(players, strokes).map { #"{"playerID":"\#($0)","strokes":\#($1)}"# }.joined(separator: ",")
        let answer = try await client.postJSON("/api/v1/rounds/\(round)/cards/\(card)/holes/\(hole)", #"{"scores":[\#(scores)]}"#)
        #expect(answer.status == .ok || answer.status == .created, "\(answer.text)")
    }

    @Test func theWholeCardIsShownBeforeSigningAndARefusalSaysWhy() async throws {
        try await withApp { client in
            let (round, card, players) = try await Self.cardRound(client)
            try await Self.hole(client, round, card, 1, players, [3, 4, 2])
            try await Self.hole(client, round, card, 2, players, [4, 5, 4])
            let early = try await client.as(.athlete).get("/rounds/\(round)/cards/\(card)").text
            #expect(!early.contains("check every hole before signing"), "not before every hole is in")
            #expect(early.contains("Round so far:"), "running totals are labelled")
            try await Self.hole(client, round, card, 3, players, [3, 3, 3])
            let page = try await client.as(.athlete).get("/rounds/\(round)/cards/\(card)").text
            #expect(page.contains("The whole card: check every hole before signing"))
            #expect(
                page.contains("<td>2</td><td>4</td><td>3</td><td class=\"total\">9</td><td class=\"topar\">-1</td>"),
                "every hole, the total and to par")
            #expect(page.contains("Sign for"))

            // Signed, the athlete may no longer correct their own score: the page says so.
            #expect(try await client.as(.athlete).postJSON("/api/v1/rounds/\(round)/signatures", #"{"playerID":"\#(players[0])"}"#).status == .ok)
            let scores = try await client.get("/api/v1/rounds/\(round)/scores").json()["events"] as? [[String: Any]]
            let mine = try #require(scores?.first { $0["playerID"] as? String == players[0] && $0["hole"] as? Int == 1 }?["id"] as? String)
            let refused = try await client.as(.athlete).postForm(
                "/rounds/\(round)/scores", [("playerID", players[0]), ("hole", "1"), ("strokes", "4"), ("supersedes", mine)])
            #expect(refused.status.code >= 400)
            #expect(
                refused.text.contains("has signed their card: only a coach can change their scores now."),
                "the real reason, not 'fix the marked fields'")

            // A coach's change after signing is marked, with a legend.
            #expect(!(try await client.get("/rounds/\(round)").text.contains("after-signing-mark")))
            #expect(
                try await client.postForm(
                    "/rounds/\(round)/scores", [("playerID", players[0]), ("hole", "1"), ("strokes", "4"), ("supersedes", mine)]
                ).status == .seeOther)
            let grid = try await client.get("/rounds/\(round)").text
            #expect(grid.contains("class=\"after-signing-mark\"") && grid.contains("changed by a coach after the player signed"))
        }
    }

    @Test func theCorrectionPageSaysWhoEnteredWhatAndACoachDecidesWithOneTap() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let stores = try await Stores(directory: client.users.directory)
            let board = try await stores.domain.board(of: try #require(UUID(text: roundID)))
            let scored = try #require(board.scores.holes.first { $0.key.playerID == board.snapshot.round.playerIDs[0] })
            let athlete = client.users.athlete
            let other = ScoreEvent(
                id: UUID(), roundID: board.snapshot.round.id, playerID: scored.key.playerID, hole: scored.key.hole,
                strokes: .count((scored.value.winner.strokes.count ?? 3) + 1), reportedBy: athlete.playerID, deviceID: UUID(),
                recordedAt: HLC(wallMillis: Date().millisecondsSince1970, counter: 0, deviceID: UUID()))
            _ = try await stores.domain.applyRemote([.record(other)])
            let path = "/rounds/\(roundID)/scores/\(scored.value.winner.id.lowercasedText)/correct"
            let athletePage = try await client.as(.athlete).get(path).text
            #expect(athletePage.contains("entered by \(athlete.handle.capitalized)"))
            #expect(!athletePage.contains("Decide with one tap"), "only a coach decides")
            let coachPage = try await client.get(path).text
            let pick = try #require(
                coachPage.firstMatch(
                    of:
                        /name="strokes" value="(\d+)"><input type="hidden" name="penalties" value="0">\s*<button type="submit" class="secondary">Use (\d+) \(([^)]*)\)/
                ))
            #expect(String(pick.3) != "")
            #expect(
                try await client.postForm(
                    "/rounds/\(roundID)/scores",
                    [
                        ("playerID", scored.key.playerID.lowercasedText), ("hole", String(scored.key.hole)),
                        ("strokes", String(pick.1)), ("penalties", "0"), ("supersedes", scored.value.winner.id.lowercasedText),
                    ]
                ).status == .seeOther)
            let conflicts = try await client.standings(roundID)["conflicts"] as? [Any]
            #expect(conflicts?.isEmpty ?? true, "the coach's pick decided the hole")
        }
    }
}
