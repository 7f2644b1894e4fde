import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// Removing a course, player, event, round or season from its edit page asks first, with or
/// without JavaScript: the remove button's POST (without `confirm=yes`) answers with a page
/// naming what will be removed and what is kept, whose own button posts again with
/// `confirm=yes`; only that removes.
extension DirectorPagesController {
    @Sendable func remove(_ type: RecordType, list: String, request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.uuid("id", type.noun)
        let form = try await request.decode(as: RemoveForm.self, context: context)
        guard form.confirm == "yes" else {
            return try renderer.page(try await removeQuestion(type, id, list: list), "remove-confirm").response(from: request, context: context)
        }
        // A refusal (the last admin, an admin's record for a coach, oneself) is answered by the
        // error middleware: 403 or 409 with the reason.
        let removal = try await stores.domain.remove(type, id, actor: context.identity?.playerID)
        return .redirect(
            to: "\(type == .round ? "/" : "/\(list)")?notice=\(removal == .deleted ? Notice.deleted.rawValue : Notice.archived.rawValue)",
            type: .normal)
    }

    /// What the question names: the record, where it goes back to, and what happens to it and
    /// to what refers to it. A record that does not exist is a 404, as the removal would be.
    private func removeQuestion(_ type: RecordType, _ id: UUID, list: String) async throws -> RemoveConfirmPage {
        let path = "/\(list)/\(Format.id(id))"
        var page = RemoveConfirmPage(title: "", noun: "", name: "", action: "\(path)/remove", cancel: "\(path)/edit", outcome: "", kept: "")
        switch type {
        case .player:
            guard let player = try await stores.domain.player(id) else { throw StoreError.notFound("Player") }
            page.noun = "player"
            page.name = player.displayName
            page.outcome =
                "If \(player.displayName) never played, scored, signed a card, checked in or paid a fee here, the player is deleted. Otherwise the player is archived: hidden from the players list and every picker."
            page.kept = "Kept either way: every round, score, signature, check-in and fee of theirs, and every result they are in."
        case .course:
            let course = try await stores.domain.course(id)
            page.noun = "course"
            page.name = course.name
            page.outcome =
                "If no round was ever played on \(course.name), the course is deleted. Otherwise it is archived: hidden from the courses list and from the course picker for new rounds."
            page.kept = "Kept either way: every round played on it, with its holes, pars and scores."
        case .event:
            let event = try await stores.domain.eventSnapshot(id).event
            page.noun = "event"
            page.name = event.name
            page.outcome =
                "If \(event.name) has no rounds, check-ins or fees, it is deleted. Otherwise it is archived: hidden from the events list and the event picker for new rounds."
            page.kept = "Kept either way: its rounds and their scores and results, its check-ins and its fee ledger."
        case .round:
            let snapshot = try await stores.domain.snapshot(of: id)
            let scores = snapshot.events.count
            page.noun = "round"
            page.name = snapshot.round.name
            if scores == 0 {
                page.outcome = "\(snapshot.round.name) has no scores yet: it is deleted, with its cards and its list of players."
                page.kept = "Kept: its players, its course and its event."
            } else {
                page.outcome =
                    "\(snapshot.round.name) has \(scores == 1 ? "a score" : "\(scores) scores"): it is archived, taken off the home page and the TV."
                page.kept = "Kept: every score and signature of it, and its place in its event's results."
            }
        case .season:
            let season = try await stores.domain.seasonSnapshot(id).season
            page.noun = "season"
            page.name = season.name
            page.outcome =
                "If \(season.name) has no league nights, it is deleted. Otherwise it is archived: hidden from the seasons list, from new nights and from the TV."
            page.kept = "Kept either way: its nights, their rounds and scores; an archived season's table stays readable at its address."
        case .scoreEvent, .signature, .clubSettings, .checkIn, .frozenHandicap, .feePayment, .tagPool, .tagMove, .tagChallenge, .pot, .moneyEntry,
            .bracket, .mulliganSale:
            throw StoreError.notFound(type.noun)
        }
        page.title = "Remove \(page.name)?"
        page.heading = "Remove the \(page.noun) “\(page.name)”?"
        page.confirmLabel = "Yes, remove \(page.name)"
        return page
    }
}

/// A remove form: only `confirm=yes` removes; anything else asks first.
struct RemoveForm: Decodable, Sendable {
    var confirm: String?
}

/// The question a remove button asks before anything is removed.
struct RemoveConfirmPage: Sendable {
    var title: String
    /// "player", "course", "event", "round" or "season".
    var noun: String
    var name: String
    /// Where the confirming form posts (with `confirm=yes`).
    var action: String
    /// Back to the record's edit page, nothing removed.
    var cancel: String
    /// What becomes of the record: deleted, or archived and hidden from where.
    var outcome: String
    /// What stays either way.
    var kept: String
    var heading = ""
    var confirmLabel = ""
}
