import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// What a director needs on league night without the command line: lists with search, edit
/// and remove for courses, players, events and rounds, late arrivals and withdrawals, a
/// completion that says who becomes DNF, reopening, and CSV uploads. Every form follows
/// POST → redirect → GET with a notice; bad input shows the form again with its values (422).
struct DirectorPagesController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to groups: RouteGroups) {
        groups.coach.get("/courses", use: courses)
        groups.coach.get("/courses/:id/edit", use: editCourse)
        groups.coach.post("/courses/:id", use: saveCourse)
        groups.coach.get("/players", use: players)
        groups.coach.get("/players/:id/edit", use: editPlayer)
        groups.coach.post("/players/:id", use: savePlayer)
        groups.coach.get("/players/import", use: playerImport)
        groups.coach.post("/players/import", use: importPlayers)
        groups.viewer.get("/events", use: events)
        groups.coach.get("/events/:id/edit", use: editEvent)
        groups.coach.post("/events/:id", use: saveEvent)
        for (path, type) in [("courses", RecordType.course), ("players", .player), ("events", .event), ("rounds", .round), ("seasons", .season)] {
            groups.coach.post("/\(path)/:id/remove") { request, context in try await remove(type, list: path, request: request, context: context) }
        }
        groups.coach.get("/rounds/:id/edit", use: editRound)
        groups.coach.post("/rounds/:id", use: renameRound)
        groups.coach.post("/rounds/:id/players", use: addPlayer)
        groups.coach.post("/rounds/:id/players/:playerID/withdraw", use: withdraw)
        groups.coach.get("/rounds/:id/complete", use: confirmCompletion)
        groups.coach.post("/rounds/:id/reopen", use: reopen)
        groups.coach.get("/rounds/:id/results/import", use: resultsImport)
        groups.coach.post("/rounds/:id/results/import", use: importResults)
        groups.admin.post("/admin/demo/remove", use: removeDemo)
    }

    private func query(_ request: Request) -> String {
        String((request.uri.queryParameters.get("q") ?? "").prefix(80)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func notice(_ path: String, _ key: Notice) -> Response {
        .redirect(to: "\(path)\(path.contains("?") ? "&" : "?")notice=\(key.rawValue)", type: .normal)
    }

    // MARK: Lists

    @Sendable func courses(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let items = try await stores.domain.courses().map { course in
            DirectoryPage.Item(
                name: course.name, detail: "\(course.holes.count) holes · par \(course.totalPar)", link: "/courses/\(Format.id(course.id))",
                editLink: "/courses/\(Format.id(course.id))/edit")
        }
        let query = query(request)
        return renderer.page(
            DirectoryPage(
                title: "Courses", query: query, items: DirectoryPage.matching(query, items), total: items.count,
                newLink: "/courses/new", newLabel: "New course", searchHint: "Course name"), "directory")
    }

    @Sendable func players(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let items = try await stores.domain.players().map { player in
            DirectoryPage.Item(
                name: player.displayName, detail: "@\(player.handle.value) · \(player.role.rawValue)", link: "/players/\(Format.id(player.id))",
                editLink: "/players/\(Format.id(player.id))/edit")
        }
        let query = query(request)
        return renderer.page(
            DirectoryPage(
                title: "Players", query: query, items: DirectoryPage.matching(query, items), total: items.count,
                newLink: "/players/new", newLabel: "New player", importLink: "/players/import"), "directory")
    }

    @Sendable func events(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let coach = context.identity?.role.includes(.coach) == true
        let items = try await stores.domain.events().map { event in
            DirectoryPage.Item(
                name: event.name, detail: event.divisions.isEmpty ? "one field" : event.divisions.joined(separator: " · "),
                link: "/events/\(Format.id(event.id))", editLink: coach ? "/events/\(Format.id(event.id))/edit" : nil)
        }
        let query = query(request)
        return renderer.page(
            DirectoryPage(
                title: "Events", query: query, items: DirectoryPage.matching(query, items), total: items.count,
                newLink: coach ? "/events/new" : nil, newLabel: "New event", searchHint: "Event name"), "directory")
    }

    // MARK: Courses

    @Sendable func editCourse(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let course = try await stores.domain.course(try context.uuid("id", "Course"))
        let rows = course.holes.map { CourseFormPage.HoleRow(number: $0.number, par: String($0.par), distance: $0.distance.map(String.init) ?? "") }
        return coursePage(course, FormState(values: ["name": course.name, "holeCount": String(course.holes.count)]), holes: rows)
    }

    private func coursePage(_ course: Course, _ form: FormState, holes: [CourseFormPage.HoleRow], status: HTTPResponse.Status = .ok) -> HTML {
        var page = CourseFormPage(
            title: "Edit \(course.name)", form: form, target: .edit("/courses/\(Format.id(course.id))", course.name), isEdit: true)
        page.holes = holes
        return renderer.page(page, "course-new", status: status)
    }

    /// The table as typed, so a refused form keeps every hole's entry.
    private func typedHoles(_ form: CourseForm) -> [CourseFormPage.HoleRow] {
        let pars = form.par ?? []
        let distances = form.distance ?? []
        return pars.indices.map { CourseFormPage.HoleRow(number: $0 + 1, par: pars[$0], distance: $0 < distances.count ? distances[$0] : "") }
    }

    @Sendable func saveCourse(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.uuid("id", "Course")
        let course = try await stores.domain.course(id)
        let form = try await request.decode(as: CourseForm.self, context: context)
        do {
            let valid = try form.draft.validated()
            _ = try await stores.domain.editCourse(id, name: valid.name, holes: valid.holes, actor: context.identity?.playerID)
            return notice("/courses", .saved)
        } catch let errors as FieldErrors {
            return try coursePage(course, FormState(values: form.values, errors: errors), holes: typedHoles(form), status: .unprocessableContent)
                .response(from: request, context: context)
        } catch let rejection as LeagueRejection {
            return try coursePage(course, FormState(values: form.values, rejection: rejection), holes: typedHoles(form), status: rejection.status)
                .response(from: request, context: context)
        }
    }

    // MARK: Players

    @Sendable func editPlayer(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let player = try await livePlayer(try context.uuid("id", "Player"))
        return try await playerPage(
            player,
            FormState(values: [
                "displayName": player.displayName, "handle": player.handle.value, "division": player.division,
                "rating": player.enteredRating.map(String.init) ?? "", "pdgaNumber": player.pdgaNumber.map(String.init) ?? "",
                "email": player.email ?? "",
            ]),
            creator: context.identity?.role ?? .coach)
    }

    private func livePlayer(_ id: UUID) async throws -> Player {
        guard let player = try await stores.domain.player(id), !player.archived else { throw StoreError.notFound("Player") }
        return player
    }

    private func playerPage(_ player: Player, _ form: FormState, creator: Role, status: HTTPResponse.Status = .ok) async throws -> HTML {
        var page = PlayerFormPage(form: form, creator: creator)
        // The divisions the club plays, offered as the usual division (any other may be typed).
        var seen: Set<String> = []
        page.divisionChoices = (try await stores.domain.seasons().flatMap(\.divisions) + stores.domain.events().flatMap(\.divisions))
            .filter { seen.insert($0).inserted }
        page.title = "Edit \(player.displayName)"
        page.target = .edit("/players/\(Format.id(player.id))", player.displayName)
        page.isEdit = true
        return renderer.page(page, "player-new", status: status)
    }

    @Sendable func savePlayer(_ request: Request, context: AppRequestContext) async throws -> Response {
        let player = try await livePlayer(try context.uuid("id", "Player"))
        let form = try await request.decode(as: PlayerForm.self, context: context)
        let creator = context.identity?.role ?? .coach
        do {
            var errors = FieldErrors()
            var valid: PlayerDraft.Valid?
            var division = ""
            do { valid = try PlayerDraft(displayName: form.displayName, handle: form.handle, role: player.role.rawValue).validated() } catch {
                for entry in error.entries { errors.add(entry.field, entry.message) }
            }
            do { division = try Division.usual(form.division) } catch { for entry in error.entries { errors.add(entry.field, entry.message) } }
            // Checked with the rest before anything is written.
            var rating: Int?
            do { rating = try Player.validRating(text: form.rating) } catch { errors.merge(error) }
            var pdgaNumber: Int??
            var email: String??
            // A form without the fields (an older page) leaves them as they are.
            if form.pdgaNumber != nil { do { pdgaNumber = .some(try Player.validPDGANumber(text: form.pdgaNumber)) } catch { errors.merge(error) } }
            if form.email != nil { do { email = .some(try Player.validEmail(text: form.email)) } catch { errors.merge(error) } }
            try errors.throwIfAny()
            guard let valid else { throw errors }
            _ = try await stores.domain.editPlayer(
                player.id, displayName: valid.displayName, handle: valid.handle, division: division, pdgaNumber: pdgaNumber, email: email,
                actor: context.identity?.playerID)
            // A form without the field (an older page) leaves the rating as it is.
            if form.rating != nil, rating != player.enteredRating {
                _ = try await stores.domain.setEnteredRating(player.id, to: rating, actor: context.identity?.playerID)
            }
            return notice("/players", .saved)
        } catch let errors as FieldErrors {
            return try await playerPage(player, FormState(values: form.values, errors: errors), creator: creator, status: .unprocessableContent)
                .response(
                    from: request, context: context)
        }
    }

    // MARK: Events

    @Sendable func editEvent(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let event = try await stores.domain.eventSnapshot(try context.uuid("id", "Event")).event
        return eventPage(
            event, FormState(values: ["name": event.name, "playedOn": event.playedOn ?? "", "divisions": event.divisions.joined(separator: ", ")]))
    }

    private func eventPage(_ event: Event, _ form: FormState, status: HTTPResponse.Status = .ok) -> HTML {
        renderer.page(
            EventFormPage(title: "Edit \(event.name)", form: form, target: .edit("/events/\(Format.id(event.id))", event.name), isEdit: true),
            "event-new", status: status)
    }

    @Sendable func saveEvent(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.uuid("id", "Event")
        let event = try await stores.domain.eventSnapshot(id).event
        let form = try await request.decode(as: EventForm.self, context: context)
        do {
            let valid = try EventDraft(name: form.name, divisions: EventDraft.divisionList(form.divisions), playedOn: form.playedOn).validated()
            _ = try await stores.domain.editEvent(
                id, name: valid.name, playedOn: valid.playedOn ?? "", divisions: valid.divisions, actor: context.identity?.playerID)
            return notice("/events/\(Format.id(id))/edit", .saved)
        } catch let errors as FieldErrors {
            return try eventPage(event, FormState(values: form.values, errors: errors), status: .unprocessableContent).response(
                from: request, context: context)
        } catch let rejection as LeagueRejection {
            return try eventPage(event, FormState(values: form.values, rejection: rejection), status: rejection.status).response(
                from: request, context: context)
        }
    }

    // MARK: Removing (asking first: DirectorPagesController+Remove.swift)

    @Sendable func removeDemo(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await stores.domain.removeDemoData(actor: context.identity?.playerID)
        return notice("/admin", .demoRemoved)
    }

    // MARK: Rounds

    @Sendable func editRound(_ request: Request, context: AppRequestContext) async throws -> HTML {
        try await roundPage(try context.uuid("id", "Round"), FormState())
    }

    private func roundPage(_ id: UUID, _ form: FormState, status: HTTPResponse.Status = .ok) async throws -> HTML {
        renderer.page(
            RoundEditPage(snapshot: try await stores.domain.snapshot(of: id), players: try await stores.domain.players(), form: form), "round-edit",
            status: status)
    }

    /// Runs a round change and comes back to the edit page with a notice, or shows the page
    /// again with the reason.
    private func changeRound(
        _ request: Request, context: AppRequestContext, values: [String: String], notice key: Notice,
        _ change: (UUID) async throws -> Void
    ) async throws -> Response {
        let id = try context.uuid("id", "Round")
        do {
            try await change(id)
            return notice("/rounds/\(Format.id(id))/edit", key)
        } catch let errors as FieldErrors {
            return try await roundPage(id, FormState(values: values, errors: errors), status: .unprocessableContent).response(
                from: request, context: context)
        } catch let rejection as LeagueRejection {
            return try await roundPage(id, FormState(values: values, rejection: rejection), status: rejection.status).response(
                from: request, context: context)
        }
    }

    @Sendable func renameRound(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: RenameForm.self, context: context)
        return try await changeRound(request, context: context, values: ["name": form.name ?? ""], notice: .saved) { id in
            _ = try await stores.domain.renameRound(id, to: try Round.validatedName(form.name), actor: context.identity?.playerID)
        }
    }

    @Sendable func addPlayer(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: LateArrivalForm.self, context: context)
        return try await changeRound(request, context: context, values: form.values, notice: .added) { id in
            guard let player = form.playerID.flatMap(UUID.init(text:)) else { throw FieldErrors("playerID", "Choose the player who arrived.") }
            let card = (form.cardID ?? "").isEmpty ? nil : form.cardID.flatMap(UUID.init(text:))
            _ = try await stores.domain.addPlayer(player, division: form.division, card: card, to: id, actor: context.identity?.playerID)
        }
    }

    /// Withdrawing asks first (one tap among a list of Withdraw buttons is easy to miss).
    @Sendable func withdraw(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: ConfirmForm.self, context: context)
        let player = try context.uuid("playerID", "Player")
        guard form.confirm == "yes" else {
            let snapshot = try await stores.domain.snapshot(of: try context.uuid("id", "Round"))
            guard snapshot.round.playerIDs.contains(player), let name = snapshot.playerNames[player] else { throw StoreError.notFound("Player") }
            let round = snapshot.round
            let holes = Set(snapshot.events.filter { $0.playerID == player }.map(\.hole)).count
            let path = "/rounds/\(Format.id(round.id))"
            var page = RemoveConfirmPage(
                title: "Withdraw \(name)?", noun: "player", name: name, action: "\(path)/players/\(Format.id(player))/withdraw",
                cancel: "\(path)/edit",
                outcome: holes == 0
                    ? "\(name) has no scores in \(round.name): they leave the round and its card."
                    : "\(name) stays on the boards as did not finish (DNF), with the \(holes == 1 ? "hole" : "\(holes) holes") scored; their card stops taking scores for them.",
                kept: "A coach can add them again from Edit round: their scores count again.")
            page.heading = "Withdraw \(name) from \(round.name)?"
            page.confirmLabel = "Yes, withdraw \(name)"
            return try renderer.page(page, "remove-confirm").response(from: request, context: context)
        }
        return try await changeRound(request, context: context, values: [:], notice: .withdrawn) { id in
            _ = try await stores.domain.withdraw(player, from: id, actor: context.identity?.playerID)
        }
    }

    /// Only an active round is completed: any other goes back to its page, which says what it is.
    @Sendable func confirmCompletion(_ request: Request, context: AppRequestContext) async throws -> Response {
        let board = try await stores.domain.board(of: try context.uuid("id", "Round"))
        guard board.snapshot.round.status == .active else { return .redirect(to: "/rounds/\(Format.id(board.snapshot.round.id))", type: .normal) }
        return try renderer.page(CompleteRoundPage(board: board), "round-complete").response(from: request, context: context)
    }

    @Sendable func reopen(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.uuid("id", "Round")
        do {
            _ = try await stores.domain.reopen(id, actor: context.identity?.playerID)
        } catch let rejection as LeagueRejection {
            throw Problem(status: .conflict, title: "Not reopened", detail: rejection.message)
        }
        return .redirect(to: "/rounds/\(Format.id(id))", type: .normal)
    }

    // MARK: Imports

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

/// The notices a redirect may ask a page to show: fixed texts, so nothing from the address
/// is ever shown.
enum Notice: String, Sendable {
    case saved, deleted, archived, added, withdrawn, imported, revoked, demoRemoved = "demo-removed", checkedIn = "checked-in"

    /// The notice a request's address asks for, with an import's counts.
    static func text(of request: Request) -> String? {
        guard let key = request.uri.queryParameters.get("notice").flatMap({ Notice(rawValue: String($0)) }) else { return nil }
        // Whether someone is checked in is the page's to say (from the list, not the address).
        if key == .checkedIn { return nil }
        guard key == .imported else { return key.text }
        let added = request.uri.queryParameters.get("added").flatMap { Int(String($0)) } ?? 0
        let updated = request.uri.queryParameters.get("updated").flatMap { Int(String($0)) } ?? 0
        let ignored = request.uri.queryParameters.get("ignored").map { String($0) } ?? ""
        return "Imported: \(added) added, \(updated) updated." + (ignored.isEmpty ? "" : " Columns not read (Hyzer keeps no such field): \(ignored).")
    }

    var text: String {
        switch self {
        case .saved: "Saved."
        case .deleted: "Removed."
        case .archived: "Archived: kept in every result, hidden from lists and pickers."
        case .added: "Added to the round."
        case .withdrawn: "Withdrawn."
        case .imported: "Imported."
        case .revoked: "Invite revoked: its link opens nothing now."
        case .demoRemoved: "The demo data is removed."
        case .checkedIn: "You're checked in. See you on the first tee."
        }
    }
}

extension FormState {
    /// A form refused by the data (a conflict or a rule): the reason at the top.
    init(values: [String: String], rejection: LeagueRejection) {
        if case .invalid(let errors) = rejection {
            self.init(values: values, errors: errors)
        } else {
            self.init(values: values)
            message = rejection.message
        }
    }
}

extension LeagueRejection {
    var status: HTTPResponse.Status {
        if case .invalid = self { .unprocessableContent } else { .conflict }
    }
}
