import Foundation
import HyzerCore
import HyzerStore

/// Everything the TV rotates through: each live round's boards, then the current seasons'
/// tables (a page per division), and a check-in page for each night whose check-in is open.
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

    var rounds: [TVBoards.Board]
    var seasons: [SeasonBoard]
    var checkIns: [CheckInBoard]
    var isEmpty: Bool

    init(boards: TVBoards, league: TVLeague, publicURL: String?) {
        rounds = boards.rounds
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
        checkIns = league.openNights.map { night in
            CheckInBoard(
                eventID: Format.id(night.event.id), name: night.event.name, seasonName: night.event.seasonID.flatMap { seasonNames[$0] } ?? "",
                code: night.event.checkInCode, base: publicURL ?? "",
                summary: night.checkedIn == 1 ? "1 player checked in" : "\(night.checkedIn) players checked in")
        }
        isEmpty = rounds.isEmpty && seasons.isEmpty && checkIns.isEmpty
    }

    static func read(_ store: DomainStore, publicURL: String?) async throws -> TVScreen {
        TVScreen(boards: TVBoards(boards: try await store.activeRoundBoards()), league: try await store.tvLeague(), publicURL: publicURL)
    }
}
