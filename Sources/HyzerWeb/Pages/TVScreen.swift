import Foundation
import HyzerCore
import HyzerStore

/// Everything the TV rotates through: each live round's boards, then the current seasons'
/// tables (a page per division), a check-in page for each night whose check-in is open and
/// none of whose rounds is under way yet (once the night plays, its boards take the screen),
/// and tonight's hardest holes of each layout being played.
/// The page and its live stream render this same value.
struct TVScreen: Sendable {
    struct SeasonBoard: Sendable {
        var seasonID: String
        var key: String
        var name: String
        var division: String
        var nightHeaders: [String]
        var rows: [SeasonPage.Row]
    }

    struct CheckInBoard: Sendable {
        var eventID: String
        var name: String
        var seasonName: String
        var code: String
        /// The club's public address when configured; else the TV fills in the address it
        /// is browsing from.
        var base: String
        var summary: String
    }

    struct TagBoard: Sendable {
        var poolID: String
        var name: String
        var rows: [TagPoolPage.Row]
    }

    /// An ace pot's balance, shown when the club makes pots public.
    struct PotBoard: Sendable {
        var potID: String
        var name: String
        var balance: String
    }

    var rounds: [TVBoards.Board]
    var seasons: [SeasonBoard]
    /// Each bag-tag pool with holders: the tag board.
    var tags: [TagBoard] = []
    var pots: [PotBoard] = []
    var checkIns: [CheckInBoard]
    var holes: [HoleStatisticsView]
    var isEmpty: Bool

    static let hardestHoles = 6

    init(boards live: [RoundBoard], league: TVLeague, publicURL: String?) {
        rounds = TVBoards(boards: live).rounds
        holes = HoleStatistics.byCourse(live).map { HoleStatisticsView(course: $0.course, statistics: $0.statistics) }
            .filter(\.hasScores).map { $0.hardest(Self.hardestHoles) }
        seasons = league.seasons.flatMap { snapshot -> [SeasonBoard] in
            let page = SeasonPage(snapshot)
            let id = Format.id(snapshot.season.id)
            return page.divisions.filter { !$0.rows.isEmpty }.map { division in
                SeasonBoard(
                    seasonID: id, key: "season/\(id)/\(division.name)", name: snapshot.season.name, division: division.name,
                    nightHeaders: page.nightHeaders, rows: division.rows)
            }
        }
        let seasonNames = Dictionary(league.seasons.map { ($0.season.id, $0.season.name) }, uniquingKeysWith: { first, _ in first })
        let playing = Set(live.compactMap(\.snapshot.round.eventID))
        checkIns = league.openNights.filter { !playing.contains($0.event.id) }.map { night in
            CheckInBoard(
                eventID: Format.id(night.event.id), name: night.event.name, seasonName: night.event.seasonID.flatMap { seasonNames[$0] } ?? "",
                code: night.event.checkInCode, base: publicURL ?? "",
                summary: night.checkedIn == 1 ? "1 player checked in" : "\(night.checkedIn) players checked in")
        }
        isEmpty = rounds.isEmpty && seasons.isEmpty && checkIns.isEmpty
    }

    static func read(_ store: DomainStore, publicURL: String?) async throws -> TVScreen {
        var screen = TVScreen(boards: try await store.activeRoundBoards(), league: try await store.tvLeague(), publicURL: publicURL)
        let pools = try await store.tagPools()
        if !pools.isEmpty {
            let names = try await store.playerNames()
            for pool in pools {
                let page = TagPoolPage(try await store.tagLedger(pool.id), names: names, allPlayers: [], seasonName: nil, now: Date())
                if !page.rows.isEmpty { screen.tags.append(TagBoard(poolID: page.id, name: page.title, rows: page.rows)) }
            }
            screen.isEmpty = screen.isEmpty && screen.tags.isEmpty
        }
        let settings = try await store.clubSettings()
        if settings.showsPots {
            let aces = try await store.pots().filter { $0.kind == .ace }
            if !aces.isEmpty {
                let books = try await store.books()
                screen.pots = aces.map {
                    PotBoard(
                        potID: Format.id($0.id), name: $0.name,
                        balance: Money.format(books.balance(of: .pot($0.id)), currency: settings.currencyCode))
                }
                screen.isEmpty = screen.isEmpty && screen.pots.isEmpty
            }
        }
        return screen
    }
}
