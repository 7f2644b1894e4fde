import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// `/api/v1/…` setup and league play: courses, players, events, rounds with divisions, cards,
/// a card's hole, signatures and playoffs. Each validates with the same drafts as the forms.
struct LeagueAPIController {
    let stores: Stores

    func addRoutes(to api: RouteGroups) {
        api.viewer.get("/courses", use: courses)
        api.coach.post("/courses", use: createCourse)
        api.viewer.get("/players", use: players)
        api.coach.post("/players", use: createPlayer)
        api.viewer.get("/events", use: events)
        api.coach.post("/events", use: createEvent)
        api.viewer.get("/events/:id", use: event)
        api.viewer.get("/events/:id/standings", use: eventStandings)
        api.coach.post("/events/:id/playoff", use: playoff)
        api.coach.post("/rounds", use: createRound)
        api.coach.post("/rounds/:id/start", use: start)
        api.coach.post("/rounds/:id/complete", use: complete)
        api.viewer.get("/rounds/:id/cards", use: cards)
        api.coach.post("/rounds/:id/cards", use: setCards)
        api.scorer.post("/rounds/:id/cards/:cardID/holes/:hole", use: scoreCardHole)
        api.viewer.get("/rounds/:id/cards/:cardID", use: cardState)
        api.scorer.post("/rounds/:id/cards/:cardID/scores", use: recordCardScores)
        api.scorer.post("/rounds/:id/signatures", use: sign)
    }

    // MARK: Courses and players

    @Sendable func courses(_ request: Request, context: AppRequestContext) async throws -> CourseListResponse {
        CourseListResponse(courses: try await stores.domain.courses().map(CourseResponse.init))
    }

    @Sendable func createCourse(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<CourseResponse> {
        let body = try await request.decodeBody(CourseBody.self, context: context)
        let course = try await stores.domain.createCourse(try CourseBody.HoleBody.draft(name: body.name, holes: body.holes).validated())
        return EditedResponse(status: .created, response: CourseResponse(course))
    }

    @Sendable func players(_ request: Request, context: AppRequestContext) async throws -> PlayerListResponse {
        PlayerListResponse(players: try await stores.domain.players().map { PlayerResponse($0, showingRole: context.identity != nil) })
    }

    @Sendable func createPlayer(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<PlayerResponse> {
        let body = try await request.decodeBody(PlayerBody.self, context: context)
        let valid = try PlayerDraft(displayName: body.displayName, handle: body.handle, role: body.role ?? Role.athlete.rawValue).validated()
        return EditedResponse(status: .created, response: PlayerResponse(try await stores.domain.createPlayer(valid, by: context.identity?.playerID)))
    }

    // MARK: Events

    @Sendable func events(_ request: Request, context: AppRequestContext) async throws -> EventListResponse {
        EventListResponse(events: try await stores.domain.events().map { EventResponse($0) })
    }

    @Sendable func createEvent(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<EventResponse> {
        let body = try await request.decodeBody(EventBody.self, context: context)
        let valid = try EventDraft(name: body.name, divisions: body.divisions ?? [], seasonID: body.seasonID, playedOn: body.playedOn)
            .validated()
        let event = try await stores.domain.createEvent(valid, createdBy: context.identity?.playerID)
        return EditedResponse(status: .created, response: EventResponse(event))
    }

    @Sendable func event(_ request: Request, context: AppRequestContext) async throws -> EventResponse {
        let snapshot = try await stores.domain.eventSnapshot(try context.uuid("id", "Event"))
        return EventResponse(snapshot.event, rounds: snapshot.rounds)
    }

    @Sendable func eventStandings(_ request: Request, context: AppRequestContext) async throws -> EventStandingsResponse {
        let snapshot = try await stores.domain.eventSnapshot(try context.uuid("id", "Event"))
        return EventStandingsResponse(snapshot.standings, night: try await stores.domain.nightSeason(snapshot.event))
    }

    @Sendable func playoff(_ request: Request, context: AppRequestContext) async throws -> EventStandingsResponse {
        let body = try await request.decodeBody(PlayoffBody.self, context: context)
        guard let winner = UUID(text: body.winner) else { throw FieldErrors("winner", "The winner must be a player id.") }
        let snapshot = try await stores.domain.recordPlayoff(eventID: try context.uuid("id", "Event"), division: body.division ?? "", winner: winner)
        return EventStandingsResponse(snapshot.standings, night: try await stores.domain.nightSeason(snapshot.event))
    }

    // MARK: Rounds

    @Sendable func createRound(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<RoundDetailResponse> {
        let body = try await request.decodeBody(RoundBody.self, context: context)
        let players = body.players ?? []
        var draft = RoundDraft(
            name: body.name, courseID: body.courseID, playerIDs: players.map(\.playerID), startNow: body.start ?? true,
            eventID: body.eventID,
            divisions: Dictionary(
                players.compactMap { entry in entry.division.map { (entry.playerID, $0) } }, uniquingKeysWith: { first, _ in first }),
            tagsID: body.tagsID
        )
        draft.format = body.format
        draft.teams = body.teams?.map { RoundDraft.TeamDraft(playerIDs: $0.playerIDs, cali: $0.cali ?? false) }
        draft.draw = body.draw.map { RoundDraft.DrawDraft(teamsOf: $0.teamsOf, balance: $0.balance) }
        draft.caliRule = body.caliRule
        draft.matchID = body.matchID
        draft.putting = body.putting
        draft.mulligans = body.mulligans
        let round = try await stores.domain.createRound(draft, createdBy: context.identity?.playerID)
        return EditedResponse(status: .created, response: RoundDetailResponse(try await stores.domain.snapshot(of: round.id)))
    }

    @Sendable func start(_ request: Request, context: AppRequestContext) async throws -> RoundDetailResponse {
        RoundDetailResponse(try await stores.domain.setStatus(of: try context.uuid("id", "Round"), to: .active))
    }

    @Sendable func complete(_ request: Request, context: AppRequestContext) async throws -> RoundDetailResponse {
        RoundDetailResponse(try await stores.domain.setStatus(of: try context.uuid("id", "Round"), to: .completed))
    }

    // MARK: Cards

    @Sendable func cards(_ request: Request, context: AppRequestContext) async throws -> CardsResponse {
        CardsResponse(try await stores.domain.snapshot(of: try context.uuid("id", "Round")))
    }

    /// Either `{"cards": […]}` set by hand or `{"auto": {"shotgun": true}}` planned.
    @Sendable func setCards(_ request: Request, context: AppRequestContext) async throws -> CardsResponse {
        let roundID = try context.uuid("id", "Round")
        let body = try await request.decodeBody(CardsBody.self, context: context)
        if body.auto != nil && body.cards != nil { throw FieldErrors("cards", "Send either the cards or \"auto\", not both.") }
        if let auto = body.auto {
            return CardsResponse(
                try await stores.domain.planCards(of: roundID, shotgun: auto.shotgun ?? true, firstTee: auto.firstTee, draw: auto.draw ?? false))
        }
        guard let bodies = body.cards else { throw FieldErrors("cards", "Send the cards, or \"auto\" to plan them.") }
        let snapshot = try await stores.domain.snapshot(of: roundID)
        var cards: [Card] = []
        for (index, card) in bodies.enumerated() {
            let ids = try card.playerIDs.map { text in
                guard let id = UUID(text: text) else { throw FieldErrors("cards[\(index)].playerIDs", "\"\(text.prefix(40))\" is not a player id.") }
                return id
            }
            cards.append(
                Card(
                    id: UUID(), name: card.name ?? "Card \(index + 1)", startingHole: card.startingHole ?? snapshot.course.holes.first?.number ?? 1,
                    teeTime: card.teeTime, playerIDs: ids))
        }
        return CardsResponse(try await stores.domain.setCards(cards, of: roundID))
    }

    /// One hole for the whole card, as the card page saves it; answers the round's standings.
    @Sendable func scoreCardHole(_ request: Request, context: AppRequestContext) async throws -> StandingsResponse {
        let roundID = try context.uuid("id", "Round")
        let cardID = try context.uuid("cardID", "Card")
        guard let hole = context.parameters.get("hole", as: Int.self) else { throw StoreError.notFound("Hole") }
        let body = try await request.decodeBody(CardHoleBody.self, context: context)
        let entries = try body.scores.enumerated().map { index, entry in
            guard let player = UUID(text: entry.playerID) else { throw FieldErrors("scores[\(index)].playerID", "That is not a player id.") }
            guard ScoreEvent.mulliganRange.contains(entry.mulligans ?? 0) else {
                throw FieldErrors("scores[\(index)].mulligans", "Mulligans must be from 0 to \(ScoreEvent.mulliganRange.upperBound).")
            }
            return DomainStore.CardEntry(
                playerID: player, strokes: entry.strokes.strokes, penalties: entry.penalties ?? 0, mulligans: entry.mulligans ?? 0)
        }
        let snapshot = try await stores.domain.recordCardHole(entries, hole: hole, card: cardID, in: roundID, by: context.identity)
        return StandingsResponse(snapshot.board)
    }

    @Sendable func cardState(_ request: Request, context: AppRequestContext) async throws -> CardStateResponse {
        let board = try await stores.domain.board(of: try context.uuid("id", "Round"))
        guard let state = CardStateResponse(board: board, cardID: try context.uuid("cardID", "Card"), viewer: context.identity, at: Date()) else {
            throw StoreError.notFound("Card")
        }
        return state
    }

    /// A phone's outbox for one card (see `CardScoresBody`): 200 with each entry's outcome,
    /// whether recorded now, sent before or refused by the round's rules; the batch as a
    /// whole is refused only when it cannot be read (422) or was typed by someone else (409).
    @Sendable func recordCardScores(_ request: Request, context: AppRequestContext) async throws -> CardScoresResponse {
        let roundID = try context.uuid("id", "Round")
        let cardID = try context.uuid("cardID", "Card")
        let (author, entries) = try await request.decodeBody(CardScoresBody.self, context: context).entries()
        let written = try await stores.domain.recordCardEntries(entries, card: cardID, in: roundID, author: author, by: context.identity)
        let board = try await stores.domain.board(of: roundID)
        guard let card = CardStateResponse(board: board, cardID: cardID, viewer: context.identity, at: Date()) else {
            throw StoreError.notFound("Card")
        }
        let results = zip(entries, written.outcomes).map { entry, outcome in
            CardScoresResponse.Result(id: Format.id(entry.id), outcome: outcome.name, reason: outcome.reason)
        }
        return CardScoresResponse(results: results, card: card)
    }

    @Sendable func sign(_ request: Request, context: AppRequestContext) async throws -> StandingsResponse {
        let body = try await request.decodeBody(SignatureBody.self, context: context)
        guard let player = UUID(text: body.playerID) else { throw FieldErrors("playerID", "That is not a player id.") }
        let snapshot = try await stores.domain.sign(playerID: player, in: try context.uuid("id", "Round"), by: context.identity)
        return StandingsResponse(snapshot.scoringView.board)
    }
}
