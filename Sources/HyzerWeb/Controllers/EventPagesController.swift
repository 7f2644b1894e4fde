import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// Events (tournaments, league nights): the new-event form, the event page with its
/// standings, and the playoff.
struct EventPagesController {
    let stores: Stores
    let renderer: TemplateRenderer
    let publicAddress: PublicAddressSource

    func addRoutes(to groups: RouteGroups) {
        groups.coach.get("/events/new", use: newEvent)
        groups.coach.post("/events", use: createEvent)
        groups.viewer.get("/events/:id", use: event)
        groups.coach.post("/events/:id/playoff", use: playoff)
        groups.scorer.post("/events/:id/checkins", use: checkIn)
        groups.scorer.post("/events/:id/checkins/:playerID/cancel", use: cancelCheckIn)
        groups.coach.post("/events/:id/checkins/many", use: checkInMany)
    }

    @Sendable func cancelCheckIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let eventID = try context.uuid("id", "Event")
        _ = try await request.decode(as: ConfirmForm.self, context: context)
        do {
            try await stores.domain.cancelCheckIn(of: try context.uuid("playerID", "Check-in"), at: eventID, by: context.identity)
            return .redirect(to: "/events/\(Format.id(eventID))#check-in-heading", type: .normal)
        } catch let rejection as LeagueRejection {
            return try await refusedCheckIn(rejection, eventID, request, context)
        }
    }

    private func refusedCheckIn(_ rejection: LeagueRejection, _ eventID: UUID, _ request: Request, _ context: AppRequestContext) async throws
        -> Response
    {
        var state = FormState()
        state.message = rejection.message
        return try renderer.page(
            try await page(try await stores.domain.eventSnapshot(eventID), form: state, viewer: context.identity, request: request), "event",
            status: rejection.status
        )
        .response(from: request, context: context)
    }

    /// The check-in forms of a league night: the player themselves, or a coach (a player of
    /// the club or a walk-up, with the fee). Refusals come back on the page.
    @Sendable func checkIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let eventID = try context.uuid("id", "Event")
        let form = try await request.decode(as: CheckInForm.self, context: context)
        do {
            let who: DomainStore.CheckInWho
            if let name = form.walkUpName, !name.trimmingCharacters(in: .whitespaces).isEmpty {
                who = .walkUp(displayName: name, handle: form.walkUpHandle)
            } else if let id = form.playerID.flatMap(UUID.init(text:)) {
                who = .player(id)
            } else {
                throw LeagueRejection.invalid(FieldErrors("playerID", "Choose a player, or name the walk-up."))
            }
            let coach = context.identity?.role.includes(.coach) == true
            _ = try await stores.domain.checkIn(
                who, division: form.division, paid: coach ? (form.paid ?? form.walkUpPaid) == "on" : nil, at: eventID, by: context.identity)
            // A player who checked themselves in is told so, not left to find their name.
            let themselves = form.playerID.flatMap(UUID.init(text:)) == context.identity?.playerID && context.identity != nil
            return .redirect(
                to: "/events/\(Format.id(eventID))\(themselves ? "?notice=\(Notice.checkedIn.rawValue)" : "")#check-in-heading", type: .normal)
        } catch let rejection as LeagueRejection {
            return try await refusedCheckIn(rejection, eventID, request, context)
        }
    }

    /// A coach's ticks: every ticked player checked in at once, each in their known division
    /// or the one chosen beside their name; none when one is refused (the ticks come back).
    @Sendable func checkInMany(_ request: Request, context: AppRequestContext) async throws -> Response {
        let eventID = try context.uuid("id", "Event")
        let form = try await request.decode(as: CheckInManyForm.self, context: context)
        let chosen = (form.chosen ?? [:]).keys.sorted().compactMap(UUID.init(text:))
        var values: [String: String] = [:]
        for (id, _) in form.chosen ?? [:] { values["chosen.\(id)"] = "on" }
        for (id, division) in form.division ?? [:] { values["division.\(id)"] = division }
        for (id, _) in form.paid ?? [:] { values["paid.\(id)"] = "on" }
        do {
            let entries = chosen.map { id in
                (playerID: id, division: form.division?[Format.id(id)].flatMap { $0.isEmpty ? nil : $0 }, paid: form.paid?[Format.id(id)] != nil)
            }
            _ = try await stores.domain.checkIn(players: entries, at: eventID, by: context.identity)
            return .redirect(to: "/events/\(Format.id(eventID))#check-in-heading", type: .normal)
        } catch let rejection as LeagueRejection {
            var state = FormState(values: values)
            state.message = rejection.message
            return try renderer.page(
                try await page(try await stores.domain.eventSnapshot(eventID), form: state, viewer: context.identity, request: request), "event",
                status: rejection.status
            )
            .response(from: request, context: context)
        }
    }

    @Sendable func newEvent(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let seasons = try await stores.domain.seasons()
        // A season's "Add a league night" picks it, and its divisions.
        let chosen = request.uri.queryParameters.get("seasonID").flatMap(UUID.init(text:)).flatMap { id in seasons.first { $0.id == id } }
        var form = FormState()
        if let chosen {
            // A league night is tonight unless the coach says otherwise.
            form.values = [
                "seasonID": Format.id(chosen.id), "divisions": chosen.divisions.joined(separator: ", "), "playedOn": Format.isoDay(Date()),
            ]
        }
        var page = EventFormPage(form: form)
        if !seasons.isEmpty { page.seasons = EventFormPage.seasonOptions(seasons, chosen: form.values["seasonID"]) }
        return renderer.page(page, "event-new")
    }

    @Sendable func createEvent(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: EventForm.self, context: context)
        do {
            let valid = try EventDraft(
                name: form.name, divisions: EventDraft.divisionList(form.divisions), seasonID: form.seasonID, playedOn: form.playedOn
            ).validated()
            let event = try await stores.domain.createEvent(valid, createdBy: context.identity?.playerID)
            return .redirect(to: "/events/\(Format.id(event.id))", type: .normal)
        } catch let rejection as LeagueRejection {
            guard case .invalid(let errors) = rejection else { throw rejection }
            return try await refused(form, errors, request, context)
        } catch let errors as FieldErrors {
            return try await refused(form, errors, request, context)
        }
    }

    private func refused(_ form: EventForm, _ errors: FieldErrors, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        var page = EventFormPage(form: FormState(values: form.values, errors: errors))
        let seasons = try await stores.domain.seasons()
        if !seasons.isEmpty { page.seasons = EventFormPage.seasonOptions(seasons, chosen: form.seasonID) }
        return try renderer.page(page, "event-new", status: .unprocessableContent).response(from: request, context: context)
    }

    @Sendable func event(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let snapshot = try await stores.domain.eventSnapshot(try context.uuid("id", "Event"))
        return renderer.page(try await page(snapshot, form: FormState(), viewer: context.identity, request: request), "event")
    }

    /// A league night of a season with handicaps shows net beside gross.
    private func page(_ snapshot: EventSnapshot, form: FormState, viewer: Identity?, request: Request) async throws -> EventPage {
        let night = try await stores.domain.nightSeason(snapshot.event)
        let handicaps = night?.handicaps
        let season = night.map { (id: Format.id($0.season.id), name: $0.season.name) }
        var page = EventPage(
            title: snapshot.event.name,
            board: EventBoardView(
                event: snapshot.event, rounds: snapshot.rounds, standings: snapshot.standings, handicaps: handicaps,
                unplaced: night?.unplaced ?? false),
            form: form)
        page.holeStats = HoleStatistics.byCourse(snapshot.boards).map { HoleStatisticsView(course: $0.course, statistics: $0.statistics) }
            .filter(\.hasScores)
        page.seasonLink = season.map { "/seasons/\($0.id)" }
        page.hasBracket = try await stores.domain.hasBracket(eventID: snapshot.event.id)
        page.seasonName = season?.name
        page.playedOn = snapshot.event.playedOn.flatMap(Format.day)
        // League nights take check-ins; so does any night where someone already checked in.
        let entries = try await stores.domain.checkIns(of: snapshot.event.id)
        if season != nil || !entries.isEmpty {
            let players = viewer?.role.includes(.coach) == true ? try await stores.domain.players() : []
            let over = !snapshot.rounds.isEmpty && snapshot.rounds.allSatisfy { $0.round.status == .completed }
            let started = snapshot.rounds.contains { $0.round.status != .scheduled }
            let known = viewer == nil ? [:] : try await stores.domain.knownDivisions(at: snapshot.event.id)
            var section = CheckInSection(
                event: snapshot.event, entries: entries, viewer: viewer, players: players, known: known, started: started, over: over, form: form)
            try await showTags(in: &section, seasonID: snapshot.event.seasonID)
            section.isOpen = snapshot.event.checkInOpen(at: Date()) && !over
            section.canOpen = section.isCoach && !over
            let base = try await publicAddress.base(request)
            section.link = "\(base)/c/\(snapshot.event.checkInCode)"
            section.linkWarning = section.isCoach && PublicAddress.isLoopback(base)
            section.signInLink = viewer == nil ? "/signin?next=/events/\(Format.id(snapshot.event.id))" : nil
            if request.uri.queryParameters.get("notice") == Notice.checkedIn.rawValue, let viewer,
                entries.contains(where: { $0.checkIn.playerID == viewer.playerID })
            {
                section.checkedInNotice = Notice.checkedIn.text
            }
            if section.isCoach {
                section.fees = try await stores.domain.feeLedger(of: snapshot.event.id).map { entry in
                    let at = Date(timeIntervalSince1970: Double(entry.payment.recordedAt.wallMillis) / 1000)
                    let time = at.formatted(.dateTime.month(.abbreviated).day().hour().minute())
                    return "\(time) — \(entry.recordedByName ?? "A coach"): \(entry.playerName) \(entry.payment.paid ? "paid" : "not paid")"
                }
                section.hasFees = !section.fees.isEmpty
            }
            page.checkIn = section
        }
        return page
    }

    /// Each checked-in player's tag in the night's pools: its season's, and the club's own.
    private func showTags(in section: inout CheckInSection, seasonID: UUID?) async throws {
        let pools = try await stores.domain.tagPools().filter { $0.seasonID == nil || $0.seasonID == seasonID }
        guard !pools.isEmpty else { return }
        var tags: [String: [String]] = [:]
        for pool in pools {
            for holder in try await stores.domain.tagLedger(pool.id).holders {
                tags[Format.id(holder.playerID), default: []].append(pools.count == 1 ? "#\(holder.tag)" : "#\(holder.tag) \(pool.name)")
            }
        }
        for index in section.entries.indices {
            section.entries[index].tag = tags[section.entries[index].playerID]?.joined(separator: ", ")
        }
    }

    @Sendable func playoff(_ request: Request, context: AppRequestContext) async throws -> Response {
        let eventID = try context.uuid("id", "Event")
        let form = try await request.decode(as: PlayoffForm.self, context: context)
        do {
            guard let winner = form.winner.flatMap(UUID.init(text:)) else {
                throw LeagueRejection.invalid(FieldErrors("winner", "Choose the playoff winner."))
            }
            _ = try await stores.domain.recordPlayoff(eventID: eventID, division: form.division ?? "", winner: winner)
            return .redirect(to: "/events/\(Format.id(eventID))", type: .normal)
        } catch let rejection as LeagueRejection {
            var state = FormState()
            state.message = rejection.message
            let status: HTTPResponse.Status = if case .invalid = rejection { .unprocessableContent } else { .conflict }
            return try renderer.page(
                try await page(try await stores.domain.eventSnapshot(eventID), form: state, viewer: context.identity, request: request), "event",
                status: status
            ).response(
                from: request, context: context)
        }
    }
}
