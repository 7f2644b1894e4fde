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

    struct TagLine: Sendable {
        var poolName: String
        var poolLink: String
        var current: String
        var since: String
        var best: String
        var roundsAsFirst: Int
    }

    var title: String
    var handle: String
    /// Their bag tags: per pool, the tag now, the best ever and tag rounds finished holding #1.
    var tags: [TagLine] = [] { didSet { hasTags = !tags.isEmpty } }
    var hasTags = false
    var rating: String
    var ratingSource: String
    var hasRating: Bool
    var chart: String?
    var rounds: [RoundRow]
    var hasRounds: Bool
    var distribution: [Share]
    var handicap: String?
    /// The season whose method gives it.
    var handicapSeason: String?
    var playerID: String
    var roundsSummary: String
    var newerHref: String?
    var olderHref: String?
    var hasPaging: Bool

    static let perPage = 50

    /// `rounds`: every round of the player, newest first; the page lists `page`'s 50.
    init(
        player: Player, rating: ClubRatings.PlayerRating?, ratings: ClubRatings, rounds all: [PlayerRoundLine], page: Int,
        handicap: (value: Handicap, season: String)?
    ) {
        title = player.displayName
        handle = player.handle.value
        playerID = Format.id(player.id)
        hasRating = rating?.rating != nil
        self.rating = rating?.rating.map(String.init) ?? "–"
        ratingSource =
            switch rating?.source {
            case .entered?:
                "Entered by a coach (e.g. the player's PDGA rating): the official rating is the PDGA's. Hyzer's own takes over after \(PlayerRatings.establishedRounds) rated rounds."
            case .hyzer? where rating?.established == true: "Hyzer's own, from the club's rated rounds (not a PDGA rating)."
            case .hyzer?: "Hyzer's own, provisional: fewer than \(PlayerRatings.establishedRounds) rated rounds so far."
            case nil: "No rating yet: a coach can enter one, or it comes from rated rounds."
            }
        chart = rating.flatMap { RatingChart.svg($0.history) }
        let day = Date.FormatStyle.dateTime.day().month(.abbreviated).year()
        let shown = all.dropFirst((page - 1) * Self.perPage).prefix(Self.perPage)
        rounds = shown.map { line in
            let rated = ratings.rounds[line.roundID]
            let result = line.result
            return RoundRow(
                link: "/rounds/\(Format.id(line.roundID))", name: line.name, date: line.playedAt.formatted(day), courseName: line.courseName,
                strokes: result.thru == 0 ? "–" : String(result.strokes),
                toPar: result.dnf ? "DNF" : ScoreFormat.toPar(result.toPar), toParClass: result.dnf ? "none" : ScoreFormat.toParClass(result.toPar),
                rating: rated?.result.ratings[player.id].map(String.init) ?? "–",
                provisional: rated?.provisional == true && rated?.result.ratings[player.id] != nil)
        }
        hasRounds = !rounds.isEmpty
        roundsSummary =
            all.count > Self.perPage
            ? "Rounds \((page - 1) * Self.perPage + 1)–\((page - 1) * Self.perPage + rounds.count) of \(all.count), the newest first"
            : (all.count == 1 ? "1 round" : "\(all.count) rounds")
        newerHref = page > 1 ? (page == 2 ? "/players/\(playerID)" : "/players/\(playerID)?page=\(page - 1)") : nil
        olderHref = all.count > page * Self.perPage ? "/players/\(playerID)?page=\(page + 1)" : nil
        hasPaging = newerHref != nil || olderHref != nil
        let kinds = all.reduce(HoleStatistics.Distribution()) { $0 + $1.result.kinds }.counts
        let total = max(kinds.reduce(0, +), 1)
        distribution = zip(HoleStatisticsView.kinds, kinds).map { kind, count in
            Share(
                label: kind.many.prefix(1).uppercased() + kind.many.dropFirst(), count: count,
                percent: String(format: "%.0f%%", Double(count) * 100 / Double(total)))
        }
        self.handicap = handicap.map { String(format: "%.1f", $0.value.value) }
        handicapSeason = handicap?.season
    }
}
