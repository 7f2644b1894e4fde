import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

// Players: the list, the edit page and its save.
extension DirectorPagesController {
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

    func livePlayer(_ id: UUID) async throws -> Player {
        guard let player = try await stores.domain.player(id), !player.archived else { throw StoreError.notFound("Player") }
        return player
    }

    func playerPage(_ player: Player, _ form: FormState, creator: Role, status: HTTPResponse.Status = .ok) async throws -> HTML {
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
}
