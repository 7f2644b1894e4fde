import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite struct FormTests {
    @Test func creatingACourseRedirectsToANewRoundWithItChosen() async throws {
        try await withApp(seedDemo: false) { client in
            let created = try await client.postForm("/courses", [("name", "Birch Park"), ("holeCount", "9"), ("pars", "3 3 4 3 3 3 4 3 5")])
            #expect(created.status == .seeOther)
            let location = try #require(created.headers[.location])
            #expect(location.hasPrefix("/rounds/new?courseID="))
            let form = try await client.get(location)
            #expect(form.text.contains("selected>Birch Park · 9 holes, par 31</option>"))
        }
    }

    @Test func aBadCourseIsShownAgainWithItsValuesAndNothingIsWritten() async throws {
        try await withApp(seedDemo: false) { client in
            let response = try await client.postForm("/courses", [("name", "Birch Park"), ("holeCount", "3"), ("pars", "3 12 3")])
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("value=\"Birch Park\""))
            #expect(response.text.contains("value=\"3 12 3\""))
            #expect(response.text.contains("<span class=\"field-error\">Par for hole 2 must be a number from 2 to 8.</span>"))
            let form = try await client.get("/rounds/new")
            #expect(!form.text.contains("Birch Park"))
        }
    }

    @Test func userTextIsEscapedEverywhere() async throws {
        try await withApp(seedDemo: false) { client in
            let evil = "<script>alert(1)</script>"
            #expect(try await client.postForm("/players", [("displayName", evil), ("handle", "mallory")]).status == .seeOther)
            #expect(try await client.postForm("/courses", [("name", evil), ("holeCount", "3")]).status == .seeOther)
            let form = try await client.get("/rounds/new")
            #expect(!form.text.contains(evil))
            #expect(form.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))

            let courseID = try #require(Self.firstOptionValue(in: form.text, select: "courseID"))
            let playerID = try #require(Self.firstCheckboxValue(in: form.text))
            let round = try await client.postForm("/rounds", [("courseID", courseID), ("playerIDs[]", playerID), ("name", evil), ("startNow", "1")])
            let roundPath = try #require(round.headers[.location])
            for path in [roundPath, roundPath + "/leaderboard", "/"] {
                let page = try await client.get(path)
                #expect(!page.text.contains(evil), "\(path) shows raw user text")
                #expect(page.text.contains("&lt;script&gt;"), "\(path)")
            }
            // A refused form echoes the typed value escaped, too.
            let refused = try await client.postForm("/players", [("displayName", evil), ("handle", "\"><b>x")])
            #expect(refused.status == .unprocessableContent)
            #expect(!refused.text.contains("\"><b>x"))
        }
    }

    /// A quote followed by a combining mark is one `Character`: swift-mustache's own escaping
    /// compared characters and wrote it raw, so a name like this closed the attribute it was in
    /// (a refused form's `value="…"`) and added its own attributes to the tag.
    @Test func aQuoteWithACombiningMarkCannotLeaveItsAttribute() async throws {
        try await withApp(seedDemo: false) { client in
            let evil = "Ann\"\u{301} onfocus=alert(1) autofocus x=\"\u{301}"
            let refused = try await client.postForm("/players", [("displayName", evil), ("handle", "not a handle")])
            #expect(refused.status == .unprocessableContent)
            // Outside the macros: #expect's expansion cannot quote a literal like these.
            let kept = "value=\"Ann&quot;\u{301} onfocus=alert(1) autofocus x=&quot;\u{301}\""
            let broken = "\"\u{301} onfocus"
            #expect(refused.text.contains(kept))
            #expect(!refused.text.contains(broken), "a raw quote before the name's own attributes")
        }
    }

    @Test func playersNeedAUniqueValidHandle() async throws {
        try await withApp(seedDemo: false) { client in
            #expect(try await client.postForm("/players", [("displayName", "Ann"), ("handle", "ann")]).status == .seeOther)
            let taken = try await client.postForm("/players", [("displayName", "Ann Two"), ("handle", "@ANN")])
            #expect(taken.status == .unprocessableContent)
            #expect(taken.text.contains("The handle @ann is already taken."))
            #expect(taken.text.contains("value=\"Ann Two\""))
            let blank = try await client.postForm("/players", [("displayName", ""), ("handle", "")])
            #expect(blank.text.contains("Name is required."))
            #expect(blank.text.contains("Handle is required."))
        }
    }

    @Test func aRoundNeedsACourseAndPlayers() async throws {
        try await withApp(seedDemo: false) { client in
            let response = try await client.postForm("/rounds", [("name", "Friday doubles")])
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("Choose a course."))
            #expect(response.text.contains("Choose at least one player."))
            #expect(response.text.contains("value=\"Friday doubles\""))
            let rounds = try await client.get("/api/v1/rounds").json()["rounds"] as? [Any]
            #expect(rounds?.isEmpty == true)
        }
    }

    @Test func scoringThroughTheRoundPageChangesTheStandings() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let playerID = try #require(try await client.roundDetail(roundID).playerIDs().last)
            let before = try await client.standings(roundID)
            let thruBefore = try #require(before.row(playerID)?["thru"] as? Int)

            let saved = try await client.postForm("/rounds/\(roundID)/scores", [("playerID", playerID), ("hole", "18"), ("strokes", "2")])
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/rounds/\(roundID)#scorecard")
            let after = try await client.standings(roundID)
            #expect(after.row(playerID)?["thru"] as? Int == thruBefore + 1)
            #expect((after["version"] as? Int ?? 0) == (before["version"] as? Int ?? 0) + 1)
        }
    }

    @Test(arguments: [
        ([("hole", "1"), ("strokes", "0")], "Strokes must be between 1 and 99."),
        ([("hole", "1"), ("strokes", "lots")], "Strokes must be a number from 1 to 99, or DNF."),
        ([("hole", "19"), ("strokes", "3")], "Hole 19 is not on Maple Hill DGC (holes 1–18)."),
        ([("hole", "1"), ("strokes", "3")], "Hole 1 already has a score for"),
    ])
    func badScoresAreShownAgainAndNotWritten(fields: [(String, String)], message: String) async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let playerID = try #require(try await client.roundDetail(roundID).playerIDs().first)
            let before = try await client.standings(roundID)
            let response = try await client.postForm("/rounds/\(roundID)/scores", [("playerID", playerID)] + fields)
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains(message), "\(message)")
            let strokes = fields.first { $0.0 == "strokes" }?.1 ?? ""
            #expect(response.text.contains("value=\"\(strokes)\""), "the typed strokes are kept")
            let after = try await client.standings(roundID)
            #expect(after["version"] as? Int == before["version"] as? Int)
        }
    }

    @Test func aPlayerOutsideTheRoundIsRefused() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let response = try await client.postForm("/rounds/\(roundID)/scores", [("playerID", UUID().uuidString), ("hole", "1"), ("strokes", "3")])
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("That player is not in this round."))
        }
    }

    @Test func correctingAScoreReplacesItOnTheBoard() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let playerID = try #require(try await client.roundDetail(roundID).playerIDs().first)
            let page = try await client.get("/rounds/\(roundID)")
            let correctPath = try #require(Self.firstCorrectionLink(in: page.text, playerID: playerID))
            let form = try await client.get(correctPath)
            #expect(form.status == .ok)
            let eventID = try #require(Self.hiddenValue(in: form.text, name: "supersedes"))
            let strokesBefore = try #require(try await client.standings(roundID).row(playerID)?["strokes"] as? Int)
            let current = try #require(Self.inputValue(in: form.text, name: "strokes").flatMap(Int.init))

            let saved = try await client.postForm(
                "/rounds/\(roundID)/scores", [("playerID", playerID), ("hole", "1"), ("strokes", String(current + 2)), ("supersedes", eventID)])
            #expect(saved.status == .seeOther)
            #expect(try await client.standings(roundID).row(playerID)?["strokes"] as? Int == strokesBefore + 2)

            // The old score was already corrected: a second correction of it is refused on the correction page.
            let stale = try await client.postForm(
                "/rounds/\(roundID)/scores", [("playerID", playerID), ("hole", "1"), ("strokes", "9"), ("supersedes", eventID)])
            #expect(stale.status == .unprocessableContent)
            #expect(stale.text.contains("That score was already corrected"))
            #expect(stale.text.contains("Correct a score"))
        }
    }

    @Test func completingARoundStopsScoring() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            #expect(try await client.postForm("/rounds/\(roundID)/complete", [("confirm", "yes")]).status == .seeOther)
            let page = try await client.get("/rounds/\(roundID)")
            #expect(!page.text.contains("Enter a score"))
            let playerID = try #require(try await client.roundDetail(roundID).playerIDs().first)
            let refused = try await client.postForm("/rounds/\(roundID)/scores", [("playerID", playerID), ("hole", "17"), ("strokes", "3")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("This round is completed"))
            let again = try await client.postForm("/rounds/\(roundID)/complete", [("confirm", "yes")])
            #expect(again.status == .conflict)
        }
    }

    // MARK: Reading pages

    static func firstOptionValue(in html: String, select: String) -> String? {
        guard let start = html.range(of: "name=\"\(select)\"") else { return nil }
        return capture(#"<option value="([0-9a-f-]{36})""#, in: String(html[start.upperBound...]))
    }

    static func firstCheckboxValue(in html: String) -> String? {
        capture(#"name="playerIDs\[\]" value="([0-9a-f-]{36})""#, in: html)
    }

    static func firstCorrectionLink(in html: String, playerID: String) -> String? {
        guard let row = html.range(of: "<tr data-player=\"\(playerID)\">") else { return nil }
        return capture(#"href="(/rounds/[0-9a-f-]{36}/scores/[0-9a-f-]{36}/correct)""#, in: String(html[row.upperBound...]))
    }

    static func hiddenValue(in html: String, name: String) -> String? {
        capture(#"type="hidden" name="\#(name)" value="([^"]*)""#, in: html)
    }

    static func inputValue(in html: String, name: String) -> String? {
        capture(#"<input name="\#(name)" value="([^"]*)""#, in: html)
    }

    static func capture(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }
}
