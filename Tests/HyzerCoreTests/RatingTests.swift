import Foundation
import Testing

@testable import HyzerCore

/// Round and player ratings in the PDGA manner; the published rounds in
/// `shared/data/pdga-ratings` measure how close the round ratings land.
@Suite struct RoundRatingTests {
    struct PublishedRound: Decodable {
        struct Player: Decodable {
            var rating: Int?
            var played: Int
            var total: Int?
            var published_round_rating: Int?
        }

        var pars: [Int]
        var players: [Player]
    }

    static func published(_ name: String) throws -> PublishedRound {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.deletingLastPathComponent().appendingPathComponent("shared/data/pdga-ratings/\(name).json")
        return try JSONDecoder().decode(PublishedRound.self, from: Data(contentsOf: url))
    }

    /// |ours − PDGA's| for every player with a published rating, the players' given ratings
    /// propagating.
    static func differences(_ name: String) throws -> [Int] {
        let round = try published(name)
        let ids = round.players.map { _ in UUID() }
        let entries = zip(ids, round.players).map { id, player in
            RoundRatings.Entry(
                playerID: id, strokes: player.total ?? 0, finished: player.played == round.pars.count && player.total != nil,
                propagatingRating: player.rating)
        }
        let result = RoundRatings.rate(holes: round.pars.count, entries)
        return zip(ids, round.players).compactMap { id, player in
            guard let published = player.published_round_rating, let ours = result.ratings[id] else { return nil }
            return abs(ours - published)
        }.sorted()
    }

    /// The figures reached (docs/league-night.md, "Ratings and statistics"), kept as bounds: DDO MPO median 6,
    /// p90 7; DDO FPO 5 and 6; Heinola MPO 3 and 3; all three together 4 and 6.
    @Test func thePublishedRoundsAreRatedWithinAFewPoints() throws {
        let bounds: [(String, Double, Int)] = [("77763-MPO-1", 6, 7), ("77763-FPO-1", 5, 6), ("78666-MPO-1", 3, 3)]
        var all: [Int] = []
        for (name, median, p90) in bounds {
            let differences = try Self.differences(name)
            #expect(differences.count > 40, "\(name): rated \(differences.count)")
            let agreement = try #require(Agreement(differences))
            #expect(agreement.median <= median && agreement.percentile90 <= p90, "\(name): \(differences)")
            all += differences
        }
        let together = try #require(Agreement(all))
        #expect(together.median <= 4 && together.percentile90 <= 6)
    }

    func entries(_ rows: [(Int, Int?)]) -> [RoundRatings.Entry] {
        rows.map { RoundRatings.Entry(playerID: UUID(), strokes: $0.0, finished: true, propagatingRating: $0.1) }
    }

    @Test func aRoundNeedsFivePropagators() {
        let four = RoundRatings.rate(holes: 18, entries([(54, 1000), (56, 980), (58, 950), (60, 930), (62, nil), (52, 790)]))
        #expect(four.ssa == nil && four.ratings.isEmpty && four.reason?.contains("Too few propagators: 4") == true)
        #expect(four.unrated.count == 6, "everyone is told why")
        let five = RoundRatings.rate(holes: 18, entries([(54, 1000), (56, 980), (58, 950), (60, 930), (62, 900), (63, nil)]))
        #expect(five.ssa != nil && five.ratings.count == 6 && five.propagators.count == 5)
    }

    @Test func thePropagatorsAverageRoundRatingIsTheirAverageRating() throws {
        let rows = entries([(54, 1000), (56, 980), (58, 950), (60, 930), (62, 900)])
        let result = RoundRatings.rate(holes: 18, rows)
        let ssa = try #require(result.ssa)
        let average = rows.map { RoundRatings.rating(ssa: ssa, holes: 18, strokes: $0.strokes) }.reduce(0, +) / 5
        #expect(abs(average - 952) < 0.001)
        // Lower scores rate higher, by the points a throw is worth.
        let ppt = try #require(result.pointsPerThrow)
        let gap = try #require(result.ratings[rows[0].playerID]) - (try #require(result.ratings[rows[1].playerID]))
        #expect(abs(Double(gap) - 2 * ppt) <= 1)
    }

    @Test func aPropagatorFarBelowTheirRatingIsLeftOut() throws {
        let rows = entries([(54, 1000), (56, 980), (58, 950), (60, 930), (62, 900), (72, 1000)])
        let result = RoundRatings.rate(holes: 18, rows)
        #expect(!result.propagators.contains(rows[5].playerID), "a 1000-rated player shooting 72 there does not set the SSA")
        #expect(result.ratings[rows[5].playerID] != nil, "their round is still rated")
        let without = RoundRatings.rate(holes: 18, Array(rows.prefix(5)))
        #expect(result.ssa == without.ssa)
    }

    @Test func aDNFIsNotRatedAndNineHolesCountTwiceAsMuchAThrow() throws {
        var rows = entries([(54, 1000), (56, 980), (58, 950), (60, 930), (62, 900)])
        rows.append(RoundRatings.Entry(playerID: UUID(), strokes: 30, finished: false, propagatingRating: 1000))
        let result = RoundRatings.rate(holes: 18, rows)
        #expect(result.unrated[rows[5].playerID] == "Did not finish the round.")
        let nine = RoundRatings.rate(holes: 9, entries([(27, 1000), (28, 980), (29, 950), (30, 930), (31, 900)]))
        let eighteen = RoundRatings.rate(holes: 18, entries([(54, 1000), (56, 980), (58, 950), (60, 930), (62, 900)]))
        #expect(abs((nine.ssa ?? 0) * 2 - (eighteen.ssa ?? 0)) < 0.001)
        #expect(abs((nine.pointsPerThrow ?? 0) - 2 * (eighteen.pointsPerThrow ?? 0)) < 0.001)
    }

    /// Everyone at 99 a hole on a 9-hole par-2 layout: the propagators would need an SSA far
    /// past where the points-per-throw fit turns negative (every player, the 400 included,
    /// was rated 1200). Unrated, with the reason.
    @Test func scoresPastTheFitsRangeAreUnratedWithAReason() {
        let rows = entries([(891, 1000), (891, 980), (891, 950), (891, 930), (891, 900), (891, 400)])
        let result = RoundRatings.rate(holes: 9, rows)
        #expect(result.ssa == nil && result.pointsPerThrow == nil && result.ratings.isEmpty)
        #expect(result.reason?.contains("beyond what ratings cover") == true, "\(String(describing: result.reason))")
        #expect(result.unrated.count == 6)
        // The highest SSA still rated gives a positive points per throw, so lower scores rate higher.
        #expect(RoundRatings.pointsPerThrow(ssa18: RoundRatings.maximumSSA18) > 0)
        // One absurd card among sane ones: left out of the propagators, unrated itself, and
        // the others are rated as usual.
        let mixed = entries([(23, 900), (22, 950), (24, 850), (891, 800), (18, 1100), (21, 1000), (300, nil)])
        let rated = RoundRatings.rate(holes: 9, mixed)
        #expect(rated.ssa != nil && !rated.propagators.contains(mixed[3].playerID), "\(String(describing: rated.reason))")
        #expect(rated.ratings.values.allSatisfy { $0 >= 0 } && rated.ratings.count == 5)
        #expect(rated.unrated[mixed[3].playerID] != nil && rated.unrated[mixed[6].playerID] != nil)
        let hard = entries([(80, 1000), (82, 980), (84, 950), (86, 930), (88, 900), (70, nil)])
        let high = RoundRatings.rate(holes: 18, hard)
        #expect(high.ssa != nil)
        #expect(
            (high.ratings[hard[5].playerID] ?? 0) > (high.ratings[hard[0].playerID] ?? .max), "a hard layout still rates the lowest score highest")
    }
}

@Suite struct PlayerRatingTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    func rounds(_ ratings: [Int], daysApart: Double = 7) -> [PlayerRatings.RatedRound] {
        ratings.enumerated().map { index, rating in
            PlayerRatings.RatedRound(roundID: UUID(), playedAt: now.addingTimeInterval(-Double(index) * daysApart * 86_400), rating: rating)
        }
    }

    @Test func aFewRoundsAverage() {
        #expect(PlayerRatings.rating(rounds([900, 910, 920]), asOf: now)?.value == 910)
        #expect(PlayerRatings.rating([], asOf: now) == nil)
    }

    @Test func fromNineRoundsTheNewestQuarterCountsTwice() {
        // Newest first: two newest (25% of 9 rounded) count twice.
        let nine = rounds([1000, 1000, 900, 900, 900, 900, 900, 900, 900])
        #expect(PlayerRatings.rating(nine, asOf: now)?.value == Int((Double(1000 * 4 + 900 * 7) / 11).rounded()))
    }

    @Test func fromSevenRoundsFarBelowAverageIsDropped() {
        let seven = rounds([950, 955, 960, 945, 950, 955, 820])
        let rating = PlayerRatings.rating(seven, asOf: now)
        #expect(rating?.roundIDs.count == 6 && rating?.value == 953, "820 is more than 100 below the average")
        let six = rounds([950, 955, 960, 945, 950, 820])
        #expect(PlayerRatings.rating(six, asOf: now)?.roundIDs.count == 6, "fewer than 7: nothing is dropped")
    }

    @Test func twelveMonthsBackToTwentyFourUntilEight() {
        let recent = rounds([950, 950, 950], daysApart: 30)
        let old = (0..<10).map {
            PlayerRatings.RatedRound(roundID: UUID(), playedAt: now.addingTimeInterval(-Double(400 + $0) * 86_400), rating: 850)
        }
        let ancient = PlayerRatings.RatedRound(roundID: UUID(), playedAt: now.addingTimeInterval(-800 * 86_400), rating: 500)
        let rating = PlayerRatings.rating(recent + old + [ancient], asOf: now)
        #expect(rating?.roundIDs.count == 8, "3 of the last year and the 5 newest older ones")
        #expect(rating.map { !$0.roundIDs.contains(ancient.roundID) } == true)
        let full = rounds(Array(repeating: 950, count: 10), daysApart: 30) + old
        #expect(PlayerRatings.rating(full, asOf: now)?.value == 950, "8 or more in the last year: older ones do not count")
    }

    @Test func theClubsKeptOrderGivesWhatAnyOrderGives() {
        // Rounds on the same moment too (ordered by id), one in the future (not counted yet).
        var all = rounds([930, 900, 960, 880, 990, 905, 940, 915, 970, 925, 890], daysApart: 40)
        all += [PlayerRatings.RatedRound(roundID: UUID(), playedAt: all[2].playedAt, rating: 700)]
        all += [PlayerRatings.RatedRound(roundID: UUID(), playedAt: now.addingTimeInterval(86_400), rating: 1100)]
        let chronological = all.sorted {
            $0.playedAt != $1.playedAt ? $0.playedAt < $1.playedAt : $0.roundID.lowercasedText < $1.roundID.lowercasedText
        }
        for moment in [now, now.addingTimeInterval(-100 * 86_400), now.addingTimeInterval(300 * 86_400)] {
            #expect(PlayerRatings.rating(chronological: chronological, asOf: moment) == PlayerRatings.rating(all.shuffled(), asOf: moment))
        }
    }
}

@Suite struct HoleStatisticsTests {
    @Test func eachHoleHasItsAverageItsScoresAndItsRank() {
        let course = Course(
            id: UUID(), name: "Three", holes: [Hole(number: 1, par: 3), Hole(number: 2, par: 4), Hole(number: 3, par: 3)], createdAt: Date(),
            updatedAt: HLC(wallMillis: 1, counter: 0, deviceID: UUID()))
        let scores: [(hole: Int, strokes: Int)] = [(1, 1), (1, 3), (1, 5), (2, 2), (2, 3), (2, 4), (2, 6), (3, 4), (3, 4)]
        let stats = HoleStatistics.compute(course: course, scores: scores, rounds: 4)
        #expect(stats.rounds == 4)
        let one = stats.holes[0]
        #expect(one.played == 3 && one.averageToPar == 0)
        #expect(one.distribution.ace == 1 && one.distribution.par == 1 && one.distribution.doublePlus == 1 && one.distribution.eagle == 0)
        let two = stats.holes[1]
        #expect(two.distribution.eagle == 1 && two.distribution.birdie == 1 && two.distribution.par == 1 && two.distribution.doublePlus == 1)
        #expect(two.averageToPar == -0.25)
        // Hardest first: hole 3 (+1), then 1 (0), then 2 (−0.25).
        #expect(stats.holes.map(\.difficultyRank) == [2, 3, 1])
        let tied = HoleStatistics.compute(course: course, scores: [(1, 4), (2, 5), (3, 3)], rounds: 1)
        #expect(tied.holes.map(\.difficultyRank) == [1, 1, 3], "equal averages share a rank")
        let empty = HoleStatistics.compute(course: course, scores: [], rounds: 0)
        #expect(empty.holes.allSatisfy { $0.averageToPar == nil && $0.difficultyRank == nil && $0.played == 0 })
        // Rounds' tallies add up to the same statistics as all their scores together.
        var tallies = [HoleStatistics.Tally(), HoleStatistics.Tally()]
        for (index, score) in scores.enumerated() { tallies[index % 2].add(hole: score.hole, strokes: score.strokes) }
        #expect(HoleStatistics.compute(course: course, tallies: tallies, rounds: 4) == stats)
    }
}
