import Foundation
import Testing

@testable import HyzerCore

/// Every points rule of a season, on small nights worked out by hand.
@Suite struct SeasonPointsTests {
    let players = (0..<8).map { _ in UUID() }
    var names: [UUID: String] { Dictionary(uniqueKeysWithValues: players.enumerated().map { ($1, "Player \($0)") }) }

    func night(_ scores: [Int?], division: String = "MPO", event: UUID = UUID()) -> SeasonStandings.Night {
        SeasonStandings.Night(
            eventID: event,
            results: scores.enumerated().map { index, score in
                SeasonStandings.Result(playerID: players[index], division: division, score: score ?? 0, dnf: score == nil)
            })
    }

    func points(_ standings: SeasonStandings, _ player: Int, division: String = "MPO") -> Int? {
        standings.divisions.first { $0.name == division }?.entries.first { $0.playerID == players[player] }?.points
    }

    @Test func fieldSizeGivesFirstAsManyPointsAsFinishers() {
        let standings = SeasonStandings.compute(nights: [night([-3, 1, 0, 4])], rule: PointsRule(), names: names, divisionOrder: ["MPO"])
        #expect((0..<4).map { points(standings, $0) } == [4, 2, 3, 1])
        #expect(standings.divisions[0].entries.map(\.position) == ["1", "2", "3", "4"])
    }

    @Test func tiedPlayersShareTheAverageOfTheirPlacesRoundedDown() {
        // Places 2 and 3 tied in a field of 4: (3 + 2) / 2 = 2.5 → 2 each.
        let standings = SeasonStandings.compute(nights: [night([-3, 0, 0, 4])], rule: PointsRule(), names: names, divisionOrder: [])
        #expect((0..<4).map { points(standings, $0) } == [4, 2, 2, 1])
        let nights = standings.divisions[0].entries.first { $0.playerID == players[1] }?.nights
        #expect(nights?.first?.place == 2 && nights?.first?.tied == true)
        // A table: three tied for first of (25, 20, 16) share 61 / 3 = 20.33 → 20.
        let table = PointsRule(places: .table([25, 20, 16, 13], pastEnd: .zero))
        let tied = SeasonStandings.compute(nights: [night([-2, -2, -2, 5])], rule: table, names: names, divisionOrder: [])
        #expect((0..<4).map { points(tied, $0) } == [20, 20, 20, 13])
    }

    @Test func aPlayoffForFirstGivesItsWinnerFirstAndTheOthersShareTheNextPlaces() {
        // Three tied for first of (25, 20, 16, 13); player 1 won the playoff: 25 for them,
        // (20 + 16) / 2 = 18 each for the other two, 13 for fourth.
        let table = PointsRule(places: .table([25, 20, 16, 13], pastEnd: .zero))
        var decided = night([-2, -2, -2, 5])
        decided.results[1].wonPlayoff = true
        let standings = SeasonStandings.compute(nights: [decided], rule: table, names: names, divisionOrder: [])
        #expect((0..<4).map { points(standings, $0) } == [18, 25, 18, 13])
        let winner = standings.divisions[0].entries.first { $0.playerID == players[1] }
        #expect(winner?.nights.first?.place == 1 && winner?.nights.first?.tied == false && winner?.wins == 1)
        let other = standings.divisions[0].entries.first { $0.playerID == players[0] }?.nights.first
        #expect(other?.place == 2 && other?.tied == true)
        // Two tied, one won: second alone for the other.
        var pair = night([-1, -1, 3])
        pair.results[0].wonPlayoff = true
        let two = SeasonStandings.compute(nights: [pair], rule: PointsRule(), names: names, divisionOrder: [])
        #expect((0..<3).map { points(two, $0) } == [3, 2, 1])
        #expect(two.divisions[0].entries.first { $0.playerID == players[1] }?.nights.first?.tied == false)
    }

    @Test func aDNFGetsNoPlacePointsButTakingPartCounts() {
        let rule = PointsRule(participation: 1)
        let standings = SeasonStandings.compute(nights: [night([2, nil, 5])], rule: rule, names: names, divisionOrder: [])
        // Two finishers: 2 + 1 and 1 + 1; the DNF gets the participation point only.
        #expect((0..<3).map { points(standings, $0) } == [3, 1, 2])
        #expect(standings.divisions[0].entries.last?.nights.first?.place == nil)
        #expect(standings.divisions[0].entries.map(\.position) == ["1", "2", "3"])
    }

    @Test func placesPastTheTableGetItsLastValueOrZero() {
        let last = PointsRule(places: .table([10, 7, 5], pastEnd: .last))
        let zero = PointsRule(places: .table([10, 7, 5], pastEnd: .zero))
        let scores: [Int?] = [0, 1, 2, 3, 4]
        #expect(
            (0..<5).map { points(SeasonStandings.compute(nights: [night(scores)], rule: last, names: names, divisionOrder: []), $0) } == [
                10, 7, 5, 5, 5,
            ])
        #expect(
            (0..<5).map { points(SeasonStandings.compute(nights: [night(scores)], rule: zero, names: names, divisionOrder: []), $0) } == [
                10, 7, 5, 0, 0,
            ])
    }

    @Test func onlyTheBestKNightsCount() {
        let events = (0..<4).map { _ in UUID() }
        // Player 0 finishes 1st, 3rd, 2nd, 1st of three: 3, 1, 2, 3 → best two: 3 + 3.
        let nights = [
            night([0, 1, 2], event: events[0]), night([2, 1, 0], event: events[1]), night([1, 0, 2], event: events[2]),
            night([0, 1, 2], event: events[3]),
        ]
        let standings = SeasonStandings.compute(nights: nights, rule: PointsRule(bestNights: 2), names: names, divisionOrder: [])
        let entry = standings.divisions[0].entries.first { $0.playerID == players[0] }
        #expect(entry?.points == 6)
        #expect(entry?.nightsCounted == 2)
        #expect(entry?.nights.map(\.counted) == [true, false, false, true])
        #expect(entry?.nights.map(\.eventID) == events, "in season order")
    }

    @Test func grossAndNetPlaceDifferentlyAsTheCallerScoresThem() {
        // Gross: player 0 shoots -5, player 1 +3. Handicaps -4 and +6: net -1 and -3.
        let gross = SeasonStandings.compute(nights: [night([-5, 3])], rule: PointsRule(placesBy: .gross), names: names, divisionOrder: [])
        let net = SeasonStandings.compute(nights: [night([-1, -3])], rule: PointsRule(placesBy: .net), names: names, divisionOrder: [])
        #expect(gross.divisions[0].entries.first?.playerID == players[0])
        #expect(net.divisions[0].entries.first?.playerID == players[1])
    }

    @Test func seasonTiesStayTiesUnlessTheSeasonCountsBack() {
        let events = (0..<2).map { _ in UUID() }
        // Player 0: 1st (3) then 3rd (1) = 4; player 1: 2nd (2) and 2nd (2) = 4.
        let nights = [night([0, 1, 2], event: events[0]), night([2, 1, 0], event: events[1])]
        let level = SeasonStandings.compute(nights: nights, rule: PointsRule(), names: names, divisionOrder: [])
        let positions = Dictionary(uniqueKeysWithValues: level.divisions[0].entries.map { ($0.playerID, $0.position) })
        #expect(positions[players[0]] == "T1" && positions[players[1]] == "T1" && positions[players[2]] == "T1")
        let counted = SeasonStandings.compute(nights: nights, rule: PointsRule(countBack: true), names: names, divisionOrder: [])
        // Players 0 and 2 have one win each and a best night of 3; player 1 no win.
        let after = Dictionary(uniqueKeysWithValues: counted.divisions[0].entries.map { ($0.playerID, $0.position) })
        #expect(after[players[0]] == "T1" && after[players[2]] == "T1" && after[players[1]] == "3")
    }

    @Test func divisionsAreScoredApartInTheSeasonsOrder() {
        let event = UUID()
        let mixed = SeasonStandings.Night(
            eventID: event,
            results: [
                .init(playerID: players[0], division: "MPO", score: 0), .init(playerID: players[1], division: "FPO", score: 5),
                .init(playerID: players[2], division: "FPO", score: 3),
            ])
        let standings = SeasonStandings.compute(nights: [mixed], rule: PointsRule(), names: names, divisionOrder: ["FPO", "MPO"])
        #expect(standings.divisions.map(\.name) == ["FPO", "MPO"])
        #expect(points(standings, 2, division: "FPO") == 2 && points(standings, 1, division: "FPO") == 1)
        #expect(points(standings, 0, division: "MPO") == 1)
    }

    @Test func theRuleIsStoredInTheAPIsWordsAndReadBack() throws {
        let rule = PointsRule(places: .table([25, 20], pastEnd: .zero), placesBy: .net, participation: 1, bestNights: 6)
        let json = String(decoding: try RecordCoding.encode(rule), as: UTF8.self)
        #expect(json == #"{"bestNights":6,"countBack":false,"participation":1,"pastTable":"zero","placesBy":"net","rule":"table","table":[25,20]}"#)
        #expect(try RecordCoding.decode(PointsRule.self, Data(json.utf8)) == rule)
        #expect(try RecordCoding.decode(PointsRule.self, Data(#"{"rule":"fieldSize"}"#.utf8)) == PointsRule())
        #expect(throws: DecodingError.self) { try RecordCoding.decode(PointsRule.self, Data(#"{"rule":"lottery"}"#.utf8)) }
    }

    @Test func theRuleSaysItselfInWords() {
        let rule = PointsRule(places: .table([25, 20, 16], pastEnd: .last), placesBy: .net, participation: 1, bestNights: 6)
        #expect(rule.description.contains("25, 20, 16") && rule.description.contains("every later place gets 16"))
        #expect(rule.description.contains("net") && rule.description.contains("best 6 nights") && rule.description.contains("adds 1 point."))
        #expect(PointsRule().description.contains("as many points as players finished"))
    }
}

/// Every handicap method, with fewer rounds than its window, 9-hole rounds scaled to 18, and
/// the minimum before a handicap applies.
@Suite struct HandicapTests {
    func rounds(_ toPars: [Int], holes: Int = 18) -> [HandicapRound] {
        toPars.map { HandicapRound(roundID: UUID(), toPar: $0, holes: holes) }
    }

    @Test func bestOfRecentAveragesTheBestEightOfTheLastTwenty() throws {
        // 25 rounds: the first five (all -10) fall out of the window; of the last 20
        // (0…19), the best 8 are 0…7: average 3.5.
        let history = rounds(Array(repeating: -10, count: 5) + Array(0..<20))
        let handicap = try #require(Handicap.compute(HandicapMethod(kind: .bestOfRecent), rounds: history))
        #expect(handicap.value == 3.5)
        #expect(handicap.strokes == 4, "3.5 rounds half away from zero")
        #expect(Set(handicap.roundIDs) == Set(history[5..<13].map(\.roundID)))
    }

    @Test func withFewerRoundsTheBestHalfCounts() throws {
        // Five rounds: best half rounded up is 3: 1, 2, 4 → 2.3.
        let handicap = try #require(Handicap.compute(HandicapMethod(kind: .bestOfRecent), rounds: rounds([9, 4, 1, 2, 7])))
        #expect(handicap.value == 2.3 && handicap.strokes == 2)
        #expect(handicap.roundIDs.count == 3)
    }

    @Test func nineHoleRoundsAreScaledToEighteen() throws {
        // +2 on 9 holes is +4 on 18; percentage 100 over three rounds: (4 + 6 + 8) / 3 = 6.
        let handicap = try #require(Handicap.compute(HandicapMethod(kind: .percentage), rounds: rounds([2, 3, 4], holes: 9)))
        #expect(handicap.value == 6 && handicap.strokes == 6)
    }

    @Test func percentageTakesItsShareOfTheLastFive() throws {
        // Last five of seven: 2, 4, 6, 8, 10 → 6 × 90% = 5.4 → 5 throws.
        let handicap = try #require(Handicap.compute(HandicapMethod(kind: .percentage, percent: 90), rounds: rounds([30, 30, 2, 4, 6, 8, 10])))
        #expect(handicap.value == 5.4 && handicap.strokes == 5 && handicap.roundIDs.count == 5)
    }

    @Test func noHandicapBeforeTheMinimumNumberOfRounds() {
        #expect(Handicap.compute(HandicapMethod(kind: .bestOfRecent), rounds: rounds([1, 2])) == nil)
        #expect(Handicap.compute(HandicapMethod(kind: .bestOfRecent, minimumRounds: 2), rounds: rounds([1, 2])) != nil)
    }

    @Test func ratingBasedDividesTheRatingGapByPointsPerThrow() throws {
        let handicap = try #require(
            Handicap.compute(HandicapMethod(kind: .rating, minimumRounds: 0), rounds: [], rating: (value: 925, pointsPerThrow: 10)))
        #expect(handicap.value == 7.5 && handicap.strokes == 8)
        #expect(Handicap.compute(HandicapMethod(kind: .rating, minimumRounds: 0), rounds: []) == nil, "no rating, no handicap")
    }

    @Test func aGoodPlayersHandicapIsNegative() throws {
        let handicap = try #require(Handicap.compute(HandicapMethod(kind: .percentage), rounds: rounds([-4, -5, -6])))
        #expect(handicap.value == -5 && handicap.strokes == -5)
    }
}

/// Handicaps over a season's nights, and the net places they give.
@Suite struct SeasonHandicapsTests {
    let ann = UUID(), ben = UUID()

    /// A night of one 18-hole round each: `scores` player → to par.
    func night(_ scores: [UUID: Int], holes: Int = 18) -> SeasonNight {
        let round = UUID()
        return SeasonNight(
            eventID: UUID(),
            entries: scores.map { SeasonNight.Entry(playerID: $0.key, division: "MPO", toPar: $0.value, dnf: false, started: true) },
            rounds: scores.map { NightRound(roundID: round, playerID: $0.key, toPar: $0.value, holes: holes, thru: holes, dnf: false) })
    }

    @Test func aNightsHandicapComesFromEarlierNightsOnly() throws {
        let method = HandicapMethod(kind: .percentage, minimumRounds: 2)
        let nights = [night([ann: 4, ben: 0]), night([ann: 6, ben: 2]), night([ann: 20, ben: -4]), night([ann: 0, ben: 0])]
        let handicaps = SeasonHandicaps.perNight(nights, method: method)
        #expect(handicaps[nights[0].eventID]?.isEmpty == true && handicaps[nights[1].eventID]?.isEmpty == true, "two rounds first")
        #expect(handicaps[nights[2].eventID]?[ann]?.value == 5 && handicaps[nights[2].eventID]?[ben]?.value == 1)
        // Night 3's own 20 counts from night 4 on, never for night 3 itself.
        #expect(handicaps[nights[3].eventID]?[ann]?.value == 10)
        // What is played later never changes an earlier night's handicap.
        let later = SeasonHandicaps.perNight(nights + [night([ann: 30, ben: 30])], method: method)
        for earlier in nights { #expect(later[earlier.eventID] == handicaps[earlier.eventID]) }
    }

    @Test func byRatingEachNightReadsItsLayoutsPointsPerThrow() {
        let method = HandicapMethod(kind: .rating, minimumRounds: 0)
        let nights = [night([ann: 2, ben: 6]), night([ann: 0, ben: 3])]
        let basis = RatingBasis(ratings: [ann: 950, ben: 880], pointsPerThrow: [nights[0].eventID: 10, nights[1].eventID: 8])
        let handicaps = SeasonHandicaps.perNight(nights, method: method, ratings: basis)
        #expect(handicaps[nights[0].eventID]?[ann]?.value == 5 && handicaps[nights[0].eventID]?[ben]?.value == 12)
        #expect(handicaps[nights[1].eventID]?[ben]?.value == 15, "120 ÷ 8 on the second night's layout")
        #expect(SeasonHandicaps.handicap(of: ben, before: nights[1].eventID, nights, method: method, ratings: basis)?.strokes == 15)
        #expect(SeasonHandicaps.perNight(nights, method: method)[nights[0].eventID]?.isEmpty == true, "no ratings, no handicaps")
        // A layout's points per throw: from its latest SSA, or its par before any; 9 holes read as 18.
        #expect(RoundRatings.layoutPointsPerThrow(latestSSA: nil, holes: 18, par: 54) == RoundRatings.pointsPerThrow(ssa18: 54))
        #expect(RoundRatings.layoutPointsPerThrow(latestSSA: 28.5, holes: 9, par: 27) == RoundRatings.pointsPerThrow(ssa18: 57))
    }

    @Test func netPlacesTakeTheNightsHandicapOffEachRound() {
        let method = HandicapMethod(kind: .percentage, minimumRounds: 1)
        // Night 1 (no handicaps yet): ann +8, ben −2. Night 2: ann +3, ben +1; handicaps 8 and −2:
        // net −5 and +3, so ann wins net and ben gross.
        let nights = [night([ann: 8, ben: -2]), night([ann: 3, ben: 1])]
        let net = SeasonHandicaps.results(nights, rule: PointsRule(placesBy: .net), method: method)
        let gross = SeasonHandicaps.results(nights, rule: PointsRule(placesBy: .gross), method: method)
        func score(_ results: [SeasonStandings.Night], _ night: Int, _ player: UUID) -> Int? {
            results[night].results.first { $0.playerID == player }?.score
        }
        #expect(score(net, 0, ann) == 8, "no handicap yet: placed on gross")
        #expect(score(net, 1, ann) == -5 && score(net, 1, ben) == 3)
        #expect(score(gross, 1, ann) == 3 && score(gross, 1, ben) == 1)
        let table = SeasonStandings.compute(nights: net, rule: PointsRule(placesBy: .net), names: [:], divisionOrder: [])
        #expect(table.divisions[0].entries.first { $0.playerID == ann }?.nights.last?.place == 1)
    }

    @Test func aFrozenHandicapStandsWhateverTheEarlierNightsSayNow() {
        let method = HandicapMethod(kind: .percentage, minimumRounds: 1)
        let nights = [night([ann: 8, ben: -2]), night([ann: 3, ben: 1]), night([ann: 0, ben: 0])]
        let frozen = Handicap(value: 2, strokes: 2, method: .percentage, roundIDs: [])
        // Night 2 froze ann at 2 (before a correction made night 1 an 8) and ben at none.
        let kept: [UUID: [UUID: Handicap?]] = [nights[1].eventID: [ann: frozen, ben: Handicap?.none]]
        let handicaps = SeasonHandicaps.perNight(nights, method: method, frozen: kept)
        #expect(handicaps[nights[1].eventID]?[ann] == frozen)
        #expect(handicaps[nights[1].eventID]?[ben] == nil, "frozen as none")
        // A night not frozen yet reads the rounds as they are now.
        #expect(handicaps[nights[2].eventID]?[ann]?.value == 5.5 && handicaps[nights[2].eventID]?[ben]?.value == -0.5)
        let net = SeasonHandicaps.results(
            nights, rule: PointsRule(placesBy: .net), method: method, frozen: kept)
        #expect(net[1].results.first { $0.playerID == ann }?.score == 1 && net[1].results.first { $0.playerID == ben }?.score == 1)
        #expect(SeasonHandicaps.handicap(of: ann, before: nights[2].eventID, nights, method: method)?.value == 5.5)
        #expect(SeasonHandicaps.handicap(of: ann, before: nights[0].eventID, nights, method: method) == nil)
    }

    @Test func aSeasonMayLeavePlayersWithoutAHandicapUnplacedOnNetNights() {
        let nights = [night([ann: 8, ben: -2])]
        let unplaced = HandicapMethod(kind: .percentage, minimumRounds: 1, unhandicapped: .unplaced)
        let rule = PointsRule(placesBy: .net, participation: 1)
        let results = SeasonHandicaps.results(nights, rule: rule, method: unplaced)
        #expect(results[0].results.allSatisfy { $0.dnf }, "nobody has a handicap on the first night: nobody is placed")
        let table = SeasonStandings.compute(nights: results, rule: rule, names: [:], divisionOrder: [])
        #expect(table.divisions[0].entries.allSatisfy { $0.points == 1 && $0.nights.first?.place == nil }, "points for taking part only")
        let gross = SeasonHandicaps.results(nights, rule: rule, method: HandicapMethod(kind: .percentage, minimumRounds: 1))
        #expect(gross[0].results.allSatisfy { !$0.dnf })
        #expect(unplaced.description.contains("take no place"))
        // Stored seasons from before the choice existed read as "placed on gross".
        let old = Data(#"{"kind":"percentage","minimumRounds":3,"percent":90}"#.utf8)
        #expect((try? JSONDecoder().decode(HandicapMethod.self, from: old))?.unhandicapped == .gross)
    }

    @Test func aNineHoleRoundTakesHalfTheHandicap() throws {
        let handicap = try #require(
            Handicap.compute(HandicapMethod(kind: .percentage, minimumRounds: 1), rounds: [.init(roundID: UUID(), toPar: 7, holes: 18)]))
        #expect(SeasonHandicaps.strokes(handicap, holes: 18) == 7)
        #expect(SeasonHandicaps.strokes(handicap, holes: 9) == 4, "3.5 rounds half away from zero")
    }
}
