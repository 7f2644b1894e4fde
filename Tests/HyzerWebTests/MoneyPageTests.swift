import Foundation
import HummingbirdTesting
import HyzerCore
import Testing

@testable import HyzerWeb

/// The money pages and settings through the real app: pots are the coaches' until the admin
/// makes them public, then the TV shows the ace pot's balance in the club's currency and it
/// follows every change; a night's money page proposes the ace pot's payout and a coach
/// confirms it with its form; a season's fees form writes the plan the API reads.
@Suite struct MoneyPageTests {
    @Test func potsGoPublicInTheClubsCurrencyAndTheNightPageConfirmsTheAcePot() async throws {
        try await withApp { client in
            let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"Summer","divisions":["MPO"]}"#))
            let seasonID = try #require(season["id"] as? String)
            let pot = try LeagueAPITests.object(await client.postJSON("/api/v1/pots", #"{"name":"Ace pot","kind":"ace"}"#))
            let potID = try #require(pot["id"] as? String)
            #expect(try await client.as(.anonymous).get("/api/v1/pots").status == .forbidden)
            #expect(try await client.as(.athlete).get("/pots/\(potID)").status == .forbidden)
            #expect(!(try await client.as(.anonymous).get("/tv").text.contains("tv-pot")), "the TV keeps pots to itself")

            // The fees through the page's form: 10.00, 1.00 to the ace pot, the rest 70/30.
            let saved = try await client.postForm(
                "/seasons/\(seasonID)/fees",
                [
                    ("fee[MPO]", "10"), ("fee[*]", ""), ("fund[row0]", potID), ("amount[row0]", "1.00"), ("fund[row1]", "purse"),
                    ("percent[row1]", "70"),
                    ("fund[row2]", "club"), ("percent[row2]", "30"), ("table", "percentages"), ("percentages", "60, 40"),
                ])
            #expect(saved.status == .seeOther)
            let fees = try #require(try LeagueAPITests.object(await client.get("/api/v1/seasons/\(seasonID)"), .ok)["fees"] as? [String: Any])
            #expect(fees["entry"] as? [String: Int] == ["MPO": 1_000])
            #expect((fees["payout"] as? [String: Any])?["percentages"] as? [Int] == [60, 40])
            let refused = try await client.postForm(
                "/seasons/\(seasonID)/fees", [("fee[MPO]", "ten"), ("fund[row0]", "purse"), ("percent[row0]", "90")])
            #expect(refused.status == .unprocessableContent && refused.text.contains("ten is no amount"))

            // A night: two paid, one of them aces hole 1.
            let night = try LeagueAPITests.object(
                await client.postJSON("/api/v1/events", #"{"name":"Week 1","divisions":["MPO"],"seasonID":"\#(seasonID)"}"#))
            let nightID = try #require(night["id"] as? String)
            let roundID = try await client.demoRoundID()
            let round = try await client.roundDetail(roundID)
            let courses = try #require(try LeagueAPITests.object(await client.get("/api/v1/courses"), .ok)["courses"] as? [[String: Any]])
            let courseID = try #require(courses.first?["id"] as? String)
            let players = try #require(round["players"] as? [[String: Any]]).compactMap { $0["id"] as? String }.prefix(2)
            for player in players {
                _ = try await client.postJSON("/api/v1/events/\(nightID)/checkins", #"{"playerID":"\#(player)","division":"MPO","paid":true}"#)
            }
            let list = players.map { #"{"playerID":"\#($0)","division":"MPO"}"# }.joined(separator: ",")
            let made = try LeagueAPITests.object(
                await client.postJSON("/api/v1/rounds", #"{"courseID":"\#(courseID)","start":true,"eventID":"\#(nightID)","players":[\#(list)]}"#))
            let nightRound = try #require(made["id"] as? String)
            _ = try await client.postJSON(
                "/api/v1/rounds/\(nightRound)/scores", #"{"playerID":"\#(players[players.startIndex])","hole":1,"strokes":1}"#)
            let page = try await client.get("/events/\(nightID)/money").text
            #expect(page.contains("1 ace × $2.00 from Ace pot"), "both fees' ace shares, to the one eligible ace")
            #expect(try await client.as(.athlete).get("/events/\(nightID)/money").status == .forbidden)

            // The admin makes pots public in euros: the TV shows the pot.
            #expect(
                try await client.as(.admin).postForm(
                    "/admin/settings",
                    [("clubName", "Club"), ("tvPageSeconds", "10"), ("publicLeaderboards", "1"), ("currency", "eur"), ("publicPots", "1")]
                ).status == .seeOther)
            #expect(try await client.as(.anonymous).get("/api/v1/pots").status == .ok)
            #expect(try await client.as(.anonymous).get("/tv").text.contains("€2.00"))

            // The coach confirms the ace pot's payout: the pot is empty, on its page and on the TV.
            let confirm = try await client.postForm("/pots/\(potID)/payouts", [("eventID", nightID), ("playerID[]", players[players.startIndex])])
            #expect(confirm.status == .seeOther)
            #expect(confirm.headers[.location] == "/events/\(nightID)/money?done=paid")
            #expect(try await client.get("/events/\(nightID)/money?done=paid").text.contains("The payout is recorded."))
            #expect(try await client.as(.anonymous).get("/pots/\(potID)").text.contains("€0.00"))
            #expect(try await client.as(.anonymous).get("/tv").text.contains("€0.00"))
            let books = try await client.get("/money").text
            #expect(books.contains("Ace pot") && books.contains("payout"))
        }
    }

    /// Two CTP holes, one won: the winner takes half the pot and the other half stays. A pot
    /// is decided once a night, pays only players who were there, and a correction never takes
    /// it below nothing; a night with no winner rolls it all over.
    @Test func aCTPHoleWithNoWinnerLeavesItsShareInThePot() async throws {
        try await withApp { client in
            let pot = try LeagueAPITests.object(await client.postJSON("/api/v1/pots", #"{"name":"CTP","kind":"ctp"}"#))
            let potID = try #require(pot["id"] as? String)
            let night = try LeagueAPITests.object(await client.postJSON("/api/v1/events", #"{"name":"Week 2"}"#))
            let nightID = try #require(night["id"] as? String)
            let demo = try #require(try await client.roundDetail(try await client.demoRoundID())["players"] as? [[String: Any]])
            let winner = try #require(demo.first?["id"] as? String)
            let stranger = try #require(demo.last?["id"] as? String)
            _ = try await client.postJSON("/api/v1/events/\(nightID)/checkins", #"{"playerID":"\#(winner)"}"#)
            func pay(_ players: [String], at night: String = nightID) async throws -> TestResponse {
                let list = players.map { "\"\($0)\"" }.joined(separator: ",")
                return try await client.postJSON("/api/v1/pots/\(potID)/payouts", #"{"eventID":"\#(night)","playerIDs":[\#(list)]}"#)
            }
            #expect(try await pay([UUID().uuidString]).status == .unprocessableContent, "no such player")
            #expect(try await pay([winner]).status == .conflict, "an empty pot pays nobody")
            _ = try await client.postJSON("/api/v1/pots/\(potID)/contributions", #"{"cents":1001}"#)
            let notThere = try await pay([stranger])
            #expect(notThere.status == .unprocessableContent && notThere.text.contains("neither checked in for nor played"))
            #expect(
                !(try await client.get("/events/\(nightID)/money").text.contains("Record the CTP")),
                "a night whose season pays into no pot lists none")

            let paid = try await client.postForm(
                "/pots/\(potID)/payouts",
                [("eventID", nightID), ("holes", "2"), ("playerID[]", "rollover"), ("playerID[]", winner), ("playerID[]", winner)])
            #expect(paid.status == .seeOther)
            func balance() async throws -> Int? {
                try LeagueAPITests.object(await client.get("/api/v1/pots/\(potID)"), .ok)["balanceCents"] as? Int
            }
            #expect(try await balance() == 501, "500 to the one winner of two holes; 500 and the odd cent stay")
            // Decided once a night: a second decision would erase money already handed over.
            let again = try await client.postForm("/pots/\(potID)/payouts", [("eventID", nightID), ("holes", "1"), ("playerID[]", "rollover")])
            #expect(again.status == .conflict && again.text.contains("already paid or rolled over"))
            #expect(try await pay([winner]).status == .conflict)
            #expect(try await balance() == 501)
            // A correction never takes the pot below nothing.
            #expect(try await client.postJSON("/api/v1/pots/\(potID)/contributions", #"{"cents":-502}"#).status == .conflict)
            // The next night nobody wins: it all rolls over, and the ledger says so.
            let next = try LeagueAPITests.object(await client.postJSON("/api/v1/events", #"{"name":"Week 3"}"#))
            let nextID = try #require(next["id"] as? String)
            let rolled = try await client.postForm("/pots/\(potID)/payouts", [("eventID", nextID), ("holes", "1"), ("playerID[]", "rollover")])
            #expect(rolled.headers[.location] == "/events/\(nextID)/money?done=rolled")
            let ledger = try #require(try LeagueAPITests.object(await client.get("/api/v1/pots/\(potID)"), .ok)["ledger"] as? [[String: Any]])
            #expect(ledger.map { $0["kind"] as? String } == ["in", "out", "rollover"])
            #expect(try await balance() == 501)
        }
    }

    /// What an attacker found: the most negative amount crashed the server, a purse paid more
    /// than it held, a season's pot paid at another season's night.
    @Test func hostileAmountsAreRefusedAndWriteNothing() async throws {
        try await withApp { client in
            let season = try LeagueAPITests.object(await client.postJSON("/api/v1/seasons", #"{"name":"S","divisions":["MPO"]}"#))
            let seasonID = try #require(season["id"] as? String)
            let pot = try LeagueAPITests.object(
                await client.postJSON("/api/v1/pots", #"{"name":"Season ace","kind":"ace","seasonID":"\#(seasonID)"}"#))
            let potID = try #require(pot["id"] as? String)
            let before = try await client.get("/api/v1/money/ledger").text
            for cents in ["-9223372036854775808", "9223372036854775807", "-100000001", "0"] {
                let refused = try await client.postJSON("/api/v1/pots/\(potID)/contributions", #"{"cents":\#(cents)}"#)
                #expect(refused.status == .unprocessableContent, "\(cents)")
            }
            // A night of no season, nobody paid: its purse holds nothing to pay.
            let night = try LeagueAPITests.object(await client.postJSON("/api/v1/events", #"{"name":"Open night"}"#))
            let nightID = try #require(night["id"] as? String)
            let player =
                try #require(try await client.roundDetail(try await client.demoRoundID())["players"] as? [[String: Any]]).first?["id"] as? String
            let playerID = try #require(player)
            _ = try await client.postJSON("/api/v1/events/\(nightID)/checkins", #"{"playerID":"\#(playerID)"}"#)
            let overpaid = try await client.postJSON(
                "/api/v1/events/\(nightID)/payouts", #"{"playerID":"\#(playerID)","cents":100000000,"method":"cash","division":"","place":1}"#)
            #expect(overpaid.status == .conflict && overpaid.text.contains("nothing to pay out"))
            _ = try await client.postJSON("/api/v1/pots/\(potID)/contributions", #"{"cents":500}"#)
            let elsewhere = try await client.postJSON("/api/v1/pots/\(potID)/payouts", #"{"eventID":"\#(nightID)","playerIDs":["\#(playerID)"]}"#)
            #expect(elsewhere.status == .unprocessableContent && elsewhere.text.contains("season's pot"))
            let after = try LeagueAPITests.object(await client.get("/api/v1/money/ledger"), .ok)
            #expect(after["balanceCents"] as? Int == 500, "only the one good contribution: \(before)")
        }
    }
}
