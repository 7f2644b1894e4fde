import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

// `…/ratings`, in the names DESIGN.md's contract gives them.

struct EnteredRatingBody: Decodable {
    /// Null clears the entered rating; the key must be there (a misspelt key clears nothing).
    var rating: Int?

    enum CodingKeys: String, CodingKey { case rating }

    init(from decoder: any Decoder) throws {
        rating = try decoder.container(keyedBy: CodingKeys.self).decode(Int?.self, forKey: .rating)
    }
}

struct RoundRatingsResponse: ResponseEncodable {
    struct Rated: Encodable {
        var playerID: String
        var rating: Int
    }

    struct Unrated: Encodable {
        var playerID: String
        var reason: String
    }

    var roundID: String
    var provisional: Bool
    @NullWhenNone var ssa: Double?
    @NullWhenNone var pointsPerThrow: Double?
    /// How many propagators fixed the SSA.
    var propagators: Int
    var ratings: [Rated]
    var unrated: [Unrated]
    /// Why the round is not rated, when it is not.
    @NullWhenNone var reason: String?

    init(round: Round, rating: ClubRatings.RoundRating?, order: [UUID]) {
        self.roundID = Format.id(round.id)
        provisional = rating?.provisional ?? true
        let result = rating?.result
        ssa = result?.ssa.map { ($0 * 100).rounded() / 100 }
        pointsPerThrow = result?.pointsPerThrow.map { ($0 * 1000).rounded() / 1000 }
        propagators = result?.propagators.count ?? 0
        // In the board's order, so a client can lay them beside it.
        ratings = order.compactMap { id in result?.ratings[id].map { Rated(playerID: Format.id(id), rating: $0) } }
        unrated = order.compactMap { id in result?.unrated[id].map { Unrated(playerID: Format.id(id), reason: $0) } }
        reason =
            if round.format == .putting || !round.teams.isEmpty {
                "A \(round.format.label.lowercased()) round rates nobody: its scores are not each player's own throws."
            } else if round.mulligans != nil {
                "A mulligan night rates nobody: its scores leave out the throws taken again."
            } else {
                rating == nil ? "The round has not started." : result?.reason
            }
    }
}

struct PlayerRatingsResponse: ResponseEncodable {
    struct History: Encodable {
        var at: Date
        var rating: Int
        var roundIDs: [String]
    }

    struct Rated: Encodable {
        var roundID: String
        var rating: Int
    }

    var playerID: String
    @NullWhenNone var rating: Int?
    @NullWhenNone var source: String?
    /// Whether the rating propagates (rates others' rounds): entered, or Hyzer's from 8 rounds.
    var established: Bool
    @NullWhenNone var enteredRating: Int?
    var history: [History]
    var rounds: [Rated]
    /// The rounds the rating is now the average of (empty for an entered rating).
    var roundIDs: [String]

    init(player: Player, rating: ClubRatings.PlayerRating?) {
        playerID = Format.id(player.id)
        self.rating = rating?.rating
        source = rating?.source?.rawValue
        established = rating?.established ?? false
        enteredRating = player.enteredRating
        history = (rating?.history ?? []).map { History(at: $0.at, rating: $0.rating, roundIDs: $0.roundIDs.map(Format.id)) }
        rounds = (rating?.rounds ?? []).map { Rated(roundID: Format.id($0.roundID), rating: $0.rating) }
        roundIDs = (rating?.averaged ?? []).map(Format.id)
    }
}

struct CourseStatsResponse: ResponseEncodable {
    struct Distribution: Encodable {
        var ace, eagle, birdie, par, bogey, doublePlus: Int
    }

    struct Hole: Encodable {
        var number: Int
        var par: Int
        var played: Int
        @NullWhenNone var averageToPar: Double?
        var distribution: Distribution
        @NullWhenNone var difficultyRank: Int?
    }

    var courseID: String
    var rounds: Int
    var holes: [Hole]

    init(courseID: UUID, _ stats: HoleStatistics) {
        self.courseID = Format.id(courseID)
        rounds = stats.rounds
        holes = stats.holes.map { hole in
            let d = hole.distribution
            return Hole(
                number: hole.number, par: hole.par, played: hole.played, averageToPar: hole.averageToPar.map { ($0 * 1000).rounded() / 1000 },
                distribution: Distribution(ace: d.ace, eagle: d.eagle, birdie: d.birdie, par: d.par, bogey: d.bogey, doublePlus: d.doublePlus),
                difficultyRank: hole.difficultyRank)
        }
    }
}
