import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

// CSV imports: players, and a round's results.
extension DirectorPagesController {
    @Sendable func playerImport(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(Self.playersImport(FormState()), "import")
    }

    static func playersImport(_ form: FormState) -> ImportPage {
        ImportPage(
            title: "Import players", action: "/players/import",
            intro:
                "A CSV file with a header row naming name and handle, and optionally role, PDGA number, email, rating and division (headers in any case: \"PDGA Number\", \"E-mail\" and \"Div\" are read too). A handle that is new adds a player; one that exists is updated from the cells filled in (a blank cell changes nothing). Other columns are named after the import and not read. One bad line refuses the whole file, and every bad line is named.",
            example: "name,handle,pdga number,email,rating,division\nAnn Lee,ann.lee,123456,ann@example.org,912,FPO\nBen Ortiz,ben,,,,MPO",
            back: "/players", form: form)
    }

    @Sendable func importPlayers(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: CSVImportForm.self, context: context)
        do {
            let (imported, ignored) = try await CSVController.importPlayers(
                try CSVTables.decode(form.csv ?? ""), into: stores, by: context.identity)
            let skipped = ignored.isEmpty ? "" : "&ignored=" + LeaderboardPage.query(String(ignored.joined(separator: ", ").prefix(200)))
            return .redirect(
                to: "/players?notice=imported&added=\(imported.created.count)&updated=\(imported.updated.count)\(skipped)", type: .normal)
        } catch let errors as FieldErrors {
            return try renderer.page(
                Self.playersImport(FormState(values: ["csv": form.csv ?? ""], errors: errors)), "import", status: .unprocessableContent
            )
            .response(from: request, context: context)
        }
    }

    @Sendable func resultsImport(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let snapshot = try await stores.domain.snapshot(of: try context.uuid("id", "Round"))
        return renderer.page(Self.resultsImport(snapshot, FormState()), "import")
    }

    static func resultsImport(_ snapshot: RoundSnapshot, _ form: FormState) -> ImportPage {
        let id = Format.id(snapshot.round.id)
        let holes = snapshot.course.holes.map { String($0.number) }.joined(separator: ",")
        return ImportPage(
            title: "Import results · \(snapshot.round.name)", action: "/rounds/\(id)/results/import",
            intro:
                "A CSV file with a header row: a column handle (or name) and one column per hole number. Holes that already have the same score are left alone; a different score refuses the file (correct it on the round page). One bad line refuses the whole file.",
            example: "handle,\(holes)", back: "/rounds/\(id)", form: form)
    }

    @Sendable func importResults(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.uuid("id", "Round")
        let form = try await request.decode(as: CSVImportForm.self, context: context)
        let board = try await stores.domain.board(of: id)
        do {
            let submissions = try ResultsTable.results(
                try CSVTables.decode(form.csv ?? ""), round: board.snapshot.round, course: board.snapshot.course, players: board.snapshot.players)
            _ = try await stores.domain.recordScores(submissions, in: id, by: context.identity)
            return .redirect(to: "/rounds/\(Format.id(id))", type: .normal)
        } catch let errors as FieldErrors {
            return try renderer.page(
                Self.resultsImport(board.snapshot, FormState(values: ["csv": form.csv ?? ""], errors: errors)), "import",
                status: .unprocessableContent
            )
            .response(from: request, context: context)
        } catch let rejection as ScoreRejection {
            var state = FormState(values: ["csv": form.csv ?? ""])
            state.message = rejection.message
            return try renderer.page(Self.resultsImport(board.snapshot, state), "import", status: .conflict).response(from: request, context: context)
        }
    }
}
