import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// `/api/v1/tags…`: bag-tag pools, their holders (derived), a coach's moves and the history.
struct TagsAPIController {
    let stores: Stores

    func addRoutes(to api: RouteGroups) {
        api.viewer.get("/tags", use: list)
        api.coach.post("/tags", use: create)
        api.viewer.get("/tags/:id", use: detail)
        api.coach.post("/tags/:id/moves", use: move)
        api.viewer.get("/tags/:id/history", use: history)
        api.viewer.get("/players/:id/tags", use: playerTags)
        api.viewer.get("/tags/:id/challenges", use: challenges)
        api.member.post("/tags/:id/challenges", use: challenge)
        api.member.post("/tags/:id/challenges/:challengeID", use: answer)
    }

    @Sendable func challenges(_ request: Request, context: AppRequestContext) async throws -> TagChallengeListResponse {
        let ledger = try await stores.domain.tagLedger(try context.uuid("id", "Bag-tag pool"))
        let now = Date()
        return TagChallengeListResponse(tagsID: Format.id(ledger.pool.id), challenges: ledger.challenges.map { TagChallengeResponse($0, at: now) })
    }

    /// A player challenges for themselves (`challengerID` absent or their own); a coach for anyone.
    @Sendable func challenge(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<TagChallengeResponse> {
        let body = try await request.decodeBody(TagChallengeBody.self, context: context)
        let poolID = try context.uuid("id", "Bag-tag pool")
        let challenged = try body.challengedIDs.map { text throws(FieldErrors) in
            guard let id = UUID(text: text) else { throw FieldErrors("challengedIDs", "Name each challenged player by their id.") }
            return id
        }
        var challenger = context.identity?.playerID
        if let text = body.challengerID {
            guard let id = UUID(text: text) else { throw FieldErrors("challengerID", "Name the challenger by their id.") }
            challenger = id
        }
        guard let challenger else { throw FieldErrors("challengerID", "Name the challenger.") }
        let made = try await stores.domain.issueTagChallenge(
            in: poolID, challenger: challenger, challenged: challenged, days: body.days ?? 7, by: context.identity?.playerID,
            coach: context.identity?.role.includes(.coach) == true)
        return EditedResponse(status: .created, response: TagChallengeResponse(made, at: Date()))
    }

    @Sendable func answer(_ request: Request, context: AppRequestContext) async throws -> TagChallengeResponse {
        let body = try await request.decodeBody(TagAnswerBody.self, context: context)
        guard let answer = TagChallenge.Answer(rawValue: body.answer) else {
            throw FieldErrors("answer", "The answer is accept, decline or withdraw.")
        }
        var courseID: UUID?
        if let text = body.courseID {
            guard let id = UUID(text: text) else { throw FieldErrors("courseID", "The course must be a course id.") }
            courseID = id
        }
        let answered = try await stores.domain.answerTagChallenge(
            try context.uuid("challengeID", "Challenge"), answer, in: try context.uuid("id", "Bag-tag pool"), courseID: courseID,
            by: context.identity?.playerID, coach: context.identity?.role.includes(.coach) == true)
        return TagChallengeResponse(answered, at: Date())
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> TagPoolListResponse {
        TagPoolListResponse(try await stores.domain.tagPools())
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<TagPoolResponse> {
        let body = try await request.decodeBody(TagPoolBody.self, context: context)
        var count: Int?
        var listed: [Int]?
        switch body.tags {
        case .count(let value): count = value
        case .listed(let value): listed = value
        case nil: break
        }
        let (name, numbers) = try TagPool.validated(name: body.name, count: count, listed: listed)
        var seasonID: UUID?
        if let text = body.seasonID, !text.isEmpty {
            guard let id = UUID(text: text) else { throw FieldErrors("seasonID", "The season must be a season id.") }
            seasonID = id
        }
        let pool = try await stores.domain.createTagPool(name: name, numbers: numbers, seasonID: seasonID, actor: context.identity?.playerID)
        return EditedResponse(status: .created, response: TagPoolResponse(try await stores.domain.tagLedger(pool.id), names: [:]))
    }

    @Sendable func detail(_ request: Request, context: AppRequestContext) async throws -> TagPoolResponse {
        TagPoolResponse(try await stores.domain.tagLedger(try context.uuid("id", "Bag-tag pool")), names: try await stores.domain.playerNames())
    }

    @Sendable func move(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<TagMoveResponse> {
        let body = try await request.decodeBody(TagMoveBody.self, context: context)
        let poolID = try context.uuid("id", "Bag-tag pool")
        let move = try await stores.domain.recordTagMove(try body.move(), in: poolID, actor: context.identity?.playerID)
        return EditedResponse(status: .created, response: TagMoveResponse(move))
    }

    @Sendable func history(_ request: Request, context: AppRequestContext) async throws -> TagHistoryResponse {
        TagHistoryResponse(try await stores.domain.tagLedger(try context.uuid("id", "Bag-tag pool")), names: try await stores.domain.playerNames())
    }

    @Sendable func playerTags(_ request: Request, context: AppRequestContext) async throws -> PlayerTagsResponse {
        let playerID = try context.uuid("id", "Player")
        guard try await stores.domain.player(playerID) != nil else { throw StoreError.notFound("Player") }
        return PlayerTagsResponse(playerID: playerID, try await stores.domain.playerTags(playerID))
    }
}
