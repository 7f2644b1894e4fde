import Foundation
import HTTPTypes
import HummingbirdTesting
import HyzerCore
import HyzerStore
import Testing

/// League details on the existing pages: a penalty entered with the score form, and the
/// admin page listing the holes where scorekeepers disagree.
@Suite struct LeaguePageTests {
    @Test func aPenaltyCountsInTheHoleAndTheScorecardMarksIt() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let player = try #require(try await client.roundDetail(roundID).playerIDs().last)
            let before = try #require(try await client.standings(roundID).row(player)?["strokes"] as? Int)
            let hole = try #require(try await client.standings(roundID).row(player)?["thru"] as? Int) + 1
            let posted = try await client.postForm(
                "/rounds/\(roundID)/scores", [("playerID", player), ("hole", String(hole)), ("strokes", "3"), ("penalties", "1")])
            #expect(posted.status == .seeOther)
            #expect(try await client.standings(roundID).row(player)?["strokes"] as? Int == before + 4)
            let page = try await client.get("/rounds/\(roundID)").text
            #expect(page.contains("4 (1 penalty)") && page.contains("class=\"penalty-mark\""))
            let refused = try await client.postForm(
                "/rounds/\(roundID)/scores", [("playerID", player), ("hole", String(hole + 1)), ("strokes", "3"), ("penalties", "12")])
            #expect(refused.status == .unprocessableContent && refused.text.contains("Penalties must be"))
        }
    }

    @Test func theAdminPageListsHolesWhereScorekeepersDisagree() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let admin = try await client.as(.admin).get("/admin").text
            #expect(!admin.contains("Scorekeepers disagree"))
            let player = try #require(try await client.roundDetail(roundID).playerIDs().first)
            let stores = try await Stores(directory: client.users.directory)
            let board = try await stores.domain.board(of: try #require(UUID(text: roundID)))
            let scored = try #require(board.scores.holes.first { $0.key.playerID.lowercasedText == player })
            // The same hole entered differently on another device arrives through sync.
            let other = ScoreEvent(
                id: UUID(), roundID: board.snapshot.round.id, playerID: scored.key.playerID, hole: scored.key.hole,
                strokes: .count((scored.value.winner.strokes.count ?? 3) + 1), deviceID: UUID(),
                recordedAt: HLC(wallMillis: Date().millisecondsSince1970, counter: 0, deviceID: UUID()))
            _ = try await stores.domain.applyRemote([.record(other)])
            let listed = try await client.as(.admin).get("/admin").text
            #expect(listed.contains("Scorekeepers disagree") && listed.contains("hole \(scored.key.hole)"))
            #expect(listed.contains("/rounds/\(roundID)/scores/"))
        }
    }
}
