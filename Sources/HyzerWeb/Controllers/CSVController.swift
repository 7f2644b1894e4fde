import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// Results as CSV (a round, an event) and imports of a player list and of a round's
/// hole-by-hole results. Imports are all-or-nothing: one bad line refuses the file (422).
struct CSVController {
    let stores: Stores

    func addRoutes(pages: RouteGroups, api: RouteGroups) {
        pages.viewer.get("/rounds/:id/results.csv", use: roundResults)
        pages.viewer.get("/events/:id/results.csv", use: eventResults)
        pages.viewer.get("/seasons/:id/standings.csv", use: seasonStandings)
        api.coach.post("/players/import", use: importPlayers)
        api.coach.post("/rounds/:id/results", use: importResults)
    }

    @Sendable func roundResults(_ request: Request, context: AppRequestContext) async throws -> Response {
        let board = try await stores.domain.board(of: try context.uuid("id", "Round"))
        let ratings = try await stores.domain.clubRatings()
        let round = ratings.rounds[board.snapshot.round.id]?.result.ratings ?? [:]
        let players = ratings.players.compactMapValues(\.rating)
        return try CSVTables.response(ResultsTable.round(board, ratings: (round, players)), filename: board.snapshot.round.name)
    }

    @Sendable func eventResults(_ request: Request, context: AppRequestContext) async throws -> Response {
        let snapshot = try await stores.domain.eventSnapshot(try context.uuid("id", "Event"))
        return try CSVTables.response(
            ResultsTable.event(snapshot.standings, roundNames: snapshot.rounds.map(\.round.name)), filename: snapshot.event.name)
    }

    @Sendable func seasonStandings(_ request: Request, context: AppRequestContext) async throws -> Response {
        let snapshot = try await stores.domain.seasonSnapshot(try context.uuid("id", "Season"))
        return try CSVTables.response(
            ResultsTable.season(snapshot.standings, nights: snapshot.nights.map { ($0.event.id, $0.event.name) }), filename: snapshot.season.name)
    }

    @Sendable func importPlayers(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<PlayerListResponse> {
        let (imported, ignored) = try await Self.importPlayers(try await CSVTables.rows(of: request), into: stores, by: context.identity)
        return EditedResponse(
            status: imported.created.isEmpty ? .ok : .created,
            response: PlayerListResponse(players: imported.all.map { PlayerResponse($0) }, ignoredColumns: ignored.isEmpty ? nil : ignored))
    }

    /// A player list from the API or the import page: checked line by line, then imported whole;
    /// with the columns it had that were not read. Throws `FieldErrors` naming every bad line.
    static func importPlayers(_ table: [[String]], into stores: Stores, by identity: Identity?) async throws -> (
        DomainStore.PlayerImport, ignored: [String]
    ) {
        let read = try ResultsTable.players(table)
        return (try await stores.domain.importPlayers(read.rows, actor: identity?.playerID), read.ignored)
    }

    @Sendable func importResults(_ request: Request, context: AppRequestContext) async throws -> StandingsResponse {
        let roundID = try context.uuid("id", "Round")
        let table = try await CSVTables.rows(of: request)
        let board = try await stores.domain.board(of: roundID)
        let submissions = try ResultsTable.results(table, round: board.snapshot.round, course: board.snapshot.course, players: board.snapshot.players)
        return StandingsResponse(try await stores.domain.recordScores(submissions, in: roundID, by: context.identity).board)
    }
}
