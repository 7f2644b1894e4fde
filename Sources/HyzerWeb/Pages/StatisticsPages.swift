import Foundation
import HyzerCore
import HyzerStore

/// A player's page: their rating (entered or Hyzer's own) with its history as a chart, every
/// round with score, to par and round rating, how their holes go, and their season handicap.
struct PlayerPage: Sendable {
    struct RoundRow: Sendable {
        var link: String
        var name: String
        var date: String
        var courseName: String
        var strokes: String
        var toPar: String
        var toParClass: String
        var rating: String
        var provisional: Bool
    }

    struct Share: Sendable {
        var label: String
        var count: Int
        var percent: String
    }

    var title: String
    var handle: String
    var rating: String
    var ratingSource: String
    var hasRating: Bool
    var chart: String?
    var rounds: [RoundRow]
    var hasRounds: Bool
    var distribution: [Share]
    var handicap: String?
    var playerID: String

    init(player: Player, rating: ClubRatings.PlayerRating?, ratings: ClubRatings, boards: [RoundBoard], handicap: Handicap?) {
        title = player.displayName
        handle = player.handle.value
        playerID = Format.id(player.id)
        hasRating = rating?.rating != nil
        self.rating = rating?.rating.map(String.init) ?? "–"
        ratingSource =
            switch rating?.source {
            case .entered?: "Entered by a coach (e.g. the player's PDGA rating): the official rating is the PDGA's."
            case .hyzer? where rating?.established == true: "Hyzer's own, from the club's rated rounds (not a PDGA rating)."
            case .hyzer?: "Hyzer's own, provisional: fewer than \(PlayerRatings.establishedRounds) rated rounds so far."
            case nil: "No rating yet: a coach can enter one, or it comes from rated rounds."
            }
        chart = rating.flatMap { RatingChart.svg($0.history) }
        let day = Date.FormatStyle.dateTime.day().month(.abbreviated).year()
        var scored: [(strokes: Int, par: Int)] = []
        rounds = boards.compactMap { board in
            guard let entry = board.standings.entries.first(where: { $0.playerID == player.id }) else { return nil }
            let pars = Dictionary(board.snapshot.course.holes.map { ($0.number, $0.par) }, uniquingKeysWith: { first, _ in first })
            for (key, state) in board.scores.holes where key.playerID == player.id {
                if let strokes = state.winner.score, let par = pars[key.hole] { scored.append((strokes, par)) }
            }
            let round = board.snapshot.round
            let rated = ratings.rounds[round.id]
            return RoundRow(
                link: "/rounds/\(Format.id(round.id))", name: round.name, date: (round.startedAt ?? round.createdAt).formatted(day),
                courseName: board.snapshot.course.name, strokes: entry.thru == 0 ? "–" : String(entry.strokes),
                toPar: entry.dnf ? "DNF" : ScoreFormat.toPar(entry.toPar), toParClass: entry.dnf ? "none" : ScoreFormat.toParClass(entry.toPar),
                rating: rated?.result.ratings[player.id].map(String.init) ?? "–",
                provisional: rated?.provisional == true && rated?.result.ratings[player.id] != nil)
        }
        hasRounds = !rounds.isEmpty
        let kinds = HoleStatistics.Distribution.of(scored)
        let total = max(scored.count, 1)
        distribution = [
            ("Aces", kinds.ace), ("Eagles or better", kinds.eagle), ("Birdies", kinds.birdie), ("Pars", kinds.par), ("Bogeys", kinds.bogey),
            ("Double bogeys or worse", kinds.doublePlus),
        ].map { Share(label: $0.0, count: $0.1, percent: String(format: "%.0f%%", Double($0.1) * 100 / Double(total))) }
        self.handicap = handicap.map { String(format: "%.1f", $0.value) }
    }
}

/// A layout's page: how its holes play over every round on it.
struct CoursePage: Sendable {
    var title: String
    var meta: String
    var holes: HoleStatisticsView

    init(course: Course, holes: HoleStatisticsView) {
        title = course.name
        meta = "\(course.holes.count) holes · par \(course.totalPar)\(course.archived ? " · removed" : "")"
        self.holes = holes
    }
}
