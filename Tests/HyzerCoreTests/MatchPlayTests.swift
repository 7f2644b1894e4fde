import Foundation
import Testing

@testable import HyzerCore

/// Match play hole by hole, and a single-elimination bracket derived from its matches.
@Suite struct MatchPlayTests {
    func holes(_ pairs: [(Int, Int)]) -> [MatchPlay.Hole] { pairs.map { MatchPlay.Hole(a: $0.0, b: $0.1) } }

    @Test func aMatchIsDecidedWhenTheLeadPassesTheHolesLeft() {
        // a wins holes 1, 2, 4 and 5; 3 is halved: 4 up with 4 to play after 5 is not yet over…
        let early = MatchPlay.compute(holes([(3, 4), (2, 3), (3, 3), (3, 4), (2, 3)]), regulation: 9)
        #expect(early.winner == nil && early.up == 4 && early.played == 5 && early.standing == "4 up")
        // …and a halved sixth hole makes it 4 up with 3 to play: "4&3".
        let decided = MatchPlay.compute(holes([(3, 4), (2, 3), (3, 3), (3, 4), (2, 3), (3, 3), (5, 2)]), regulation: 9)
        #expect(decided.winner == .a && decided.result == "4&3" && decided.played == 6, "holes after the decision do not count")
        #expect(decided.wonByA == 4 && decided.halved == 2)
    }

    @Test func aMatchUpAfterTheLastHoleIsWonByThatMuch() {
        let match = MatchPlay.compute(holes([(3, 3), (4, 3), (3, 4), (2, 3)]), regulation: 4)
        #expect(match.winner == .a && match.result == "1up")
        let down = MatchPlay.compute(holes([(3, 3), (4, 3), (3, 3), (3, 3)]), regulation: 4)
        #expect(down.winner == .b && down.result == "1up" && down.standing == "1 down")
    }

    @Test func levelAfterTheLastHoleGoesToSuddenDeath() {
        let level = MatchPlay.compute(holes([(3, 4), (4, 3), (3, 3)]), regulation: 3)
        #expect(level.winner == nil && level.inSuddenDeath && level.result == nil)
        let halvedFirst = MatchPlay.compute(holes([(3, 4), (4, 3), (3, 3), (3, 3), (4, 3)]), regulation: 3)
        #expect(halvedFirst.winner == .b && halvedFirst.result == "5th")
        let twentieth = MatchPlay.compute(holes(Array(repeating: (3, 3), count: 19) + [(2, 3)]), regulation: 18)
        #expect(twentieth.result == "20th" && twentieth.winner == .a)
    }

    @Test func aGapStopsTheCountAndAConcessionDecides() {
        let gap = MatchPlay.Hole(a: 3, b: nil)
        let match = MatchPlay.compute([MatchPlay.Hole(a: 2, b: 3), gap, MatchPlay.Hole(a: 2, b: 3)], regulation: 3)
        #expect(match.played == 1 && match.up == 1 && match.winner == nil)
        let conceded = MatchPlay.compute([MatchPlay.Hole(a: 2, b: 3), MatchPlay.Hole(a: nil, b: nil, concededBy: .a)], regulation: 3)
        #expect(conceded.up == 0 && conceded.played == 2)
        let match2 = MatchPlay.compute(holes([(2, 3)]), regulation: 9, concededBy: .a)
        #expect(match2.winner == .b && match2.result == "conceded")
    }

    @Test func seedsMeetTheWayBracketsSeedThem() {
        #expect(Bracket.order(size: 8) == [1, 8, 4, 5, 2, 7, 3, 6])
        #expect(Bracket.size(for: 12) == 16 && Bracket.size(for: 2) == 2 && Bracket.size(for: 5) == 8)
        #expect(Bracket.matchIDs(seeds: 12).map(\.count) == [8, 4, 2, 1])
    }

    @Test func aBracketAdvancesWinnersAndGivesTheBestSeedsTheByes() {
        let seeds = (0..<6).map { _ in UUID() }
        let bracket = Bracket(
            id: UUID(), eventID: UUID(), seeds: seeds, matchIDs: Bracket.matchIDs(seeds: 6), createdBy: nil, createdAt: Date(),
            updatedAt: HLC(wallMillis: 0, counter: 0, deviceID: UUID()))
        // Size 8: 1 v bye, 4 v 5, 2 v bye, 3 v 6.
        var state = BracketState.derive(bracket, plays: [:])
        #expect(state.rounds[0].map(\.bye) == [true, false, true, false])
        #expect(state.rounds[0][0].winner == seeds[0] && state.rounds[0][2].winner == seeds[1])
        #expect(state.rounds[1][0].a == seeds[0] && state.rounds[1][0].b == nil, "waits for 4 v 5")
        // 5 beats 4 on the last hole; 3 beats 6 by 2&1.
        let fourFive = BracketState.MatchRound(roundID: UUID(), sides: [seeds[3], seeds[4]], holes: holes([(3, 3), (3, 3), (4, 3)]), regulation: 3)
        let threeSix = BracketState.MatchRound(roundID: UUID(), sides: [seeds[2], seeds[5]], holes: holes([(2, 3), (2, 3), (3, 3)]), regulation: 3)
        state = BracketState.derive(bracket, plays: [bracket.matchIDs[0][1]: [fourFive], bracket.matchIDs[0][3]: [threeSix]])
        #expect(state.rounds[0][1].winner == seeds[4] && state.rounds[0][1].result == "1up" && state.rounds[0][1].holesUp == -1)
        #expect(state.rounds[0][3].winner == seeds[2] && state.rounds[0][3].result == "2&1")
        #expect(state.rounds[1].map { [$0.a, $0.b] } == [[seeds[0], seeds[4]], [seeds[1], seeds[2]]])
        // A semi-final level after its round goes on in a sudden-death round.
        let level = BracketState.MatchRound(roundID: UUID(), sides: [seeds[0], seeds[4]], holes: holes([(3, 3), (3, 3), (3, 3)]), regulation: 3)
        let sudden = BracketState.MatchRound(roundID: UUID(), sides: [seeds[0], seeds[4]], holes: holes([(3, 3), (2, 3), (3, 3)]), regulation: 3)
        var plays = [bracket.matchIDs[0][1]: [fourFive], bracket.matchIDs[0][3]: [threeSix], bracket.matchIDs[1][0]: [level]]
        #expect(BracketState.derive(bracket, plays: plays).rounds[1][0].play?.inSuddenDeath == true)
        plays[bracket.matchIDs[1][0]] = [level, sudden]
        state = BracketState.derive(bracket, plays: plays)
        #expect(state.rounds[1][0].winner == seeds[0] && state.rounds[1][0].result == "5th" && state.rounds[1][0].roundIDs.count == 2)
        // A conceded semi-final sends the other side to the final.
        var conceded = bracket
        conceded.conceded[bracket.matchIDs[1][1]] = seeds[1]
        state = BracketState.derive(conceded, plays: plays)
        #expect(state.rounds[2][0].a == seeds[0] && state.rounds[2][0].b == seeds[2] && state.champion == nil)
        // A correction that makes 4 beat 5 leaves the semi-final's rounds (1 v 5) out: it is to be
        // played again, by 1 v 4.
        let corrected = BracketState.MatchRound(
            roundID: fourFive.roundID, sides: fourFive.sides, holes: holes([(3, 3), (3, 3), (2, 3)]), regulation: 3)
        plays[bracket.matchIDs[0][1]] = [corrected]
        state = BracketState.derive(bracket, plays: plays)
        #expect(state.rounds[1][0].b == seeds[3] && state.rounds[1][0].roundIDs.isEmpty && state.rounds[1][0].play == nil)
        #expect(state.rounds[1][0].ready)
    }
}
