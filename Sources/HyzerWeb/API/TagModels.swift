import Foundation
import Hummingbird
import HyzerCore

/// `POST /api/v1/tags`: `"tags"` is a count (1…N) or the list of numbers.
struct TagPoolBody: Decodable {
    enum Tags: Decodable {
        case count(Int)
        case listed([Int])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let count = try? container.decode(Int.self) {
                self = .count(count)
            } else if let listed = try? container.decode([Int].self) {
                self = .listed(listed)
            } else {
                throw DecodingError.typeMismatch(
                    Tags.self, .init(codingPath: decoder.codingPath, debugDescription: "tags must be a whole number or a list of them"))
            }
        }
    }

    var name: String?
    var tags: Tags?
    var seasonID: String?
}

/// `POST /api/v1/tags/{id}/moves`.
struct TagMoveBody: Decodable {
    var kind: String
    var tag: Int?
    var playerID: String?
    var playerIDs: [String]?

    func move() throws(FieldErrors) -> TagMove.Kind {
        func player(_ text: String?, _ field: String) throws(FieldErrors) -> UUID {
            guard let id = text.flatMap(UUID.init(text:)) else { throw FieldErrors(field, "Name the player by their id.") }
            return id
        }
        switch kind {
        case "assign":
            guard let tag else { throw FieldErrors("tag", "Say which tag to assign.") }
            return .assign(tag: tag, player: try player(playerID, "playerID"))
        case "reclaim":
            guard let tag else { throw FieldErrors("tag", "Say which tag to reclaim.") }
            return .reclaim(tag: tag)
        case "trade":
            guard let ids = playerIDs, ids.count == 2 else { throw FieldErrors("playerIDs", "A trade names two players.") }
            return .trade(try player(ids[0], "playerIDs"), try player(ids[1], "playerIDs"))
        default:
            throw FieldErrors("kind", "A move is an assign, a reclaim or a trade.")
        }
    }
}

struct TagPoolResponse: ResponseEncodable {
    struct Holder: Encodable {
        var tag: Int
        var playerID: String
        var displayName: String
        var since: Date
    }

    var id: String
    var name: String
    var tags: [Int]
    @NullWhenNone var seasonID: String?
    var holders: [Holder]
    var unassigned: [Int]

    init(_ ledger: BagTags.Ledger, names: [UUID: String]) {
        id = Format.id(ledger.pool.id)
        name = ledger.pool.name
        tags = ledger.pool.numbers
        seasonID = ledger.pool.seasonID.map(Format.id)
        holders = ledger.holders.map {
            Holder(tag: $0.tag, playerID: Format.id($0.playerID), displayName: names[$0.playerID] ?? "", since: $0.since)
        }
        unassigned = ledger.unassigned
    }
}

struct TagPoolListResponse: ResponseEncodable {
    struct Item: Encodable {
        var id: String
        var name: String
        var tags: Int
        @NullWhenNone var seasonID: String?
    }

    var pools: [Item]

    init(_ pools: [TagPool]) {
        self.pools = pools.map { Item(id: Format.id($0.id), name: $0.name, tags: $0.numbers.count, seasonID: $0.seasonID.map(Format.id)) }
    }
}

struct TagMoveResponse: ResponseEncodable {
    var id: String
    var tagsID: String
    var kind: String
    @NullWhenNone var tag: Int?
    var playerIDs: [String]
    var at: Date

    init(_ move: TagMove) {
        id = Format.id(move.id)
        tagsID = Format.id(move.poolID)
        kind = move.kind.name
        at = Date(timeIntervalSince1970: Double(move.recordedAt.wallMillis) / 1000)
        switch move.kind {
        case .assign(let tag, let player):
            self.tag = tag
            playerIDs = [Format.id(player)]
        case .reclaim(let tag):
            self.tag = tag
            playerIDs = []
        case .trade(let a, let b):
            playerIDs = [Format.id(a), Format.id(b)]
        }
    }
}

struct TagHistoryResponse: ResponseEncodable {
    struct Move: Encodable {
        var playerID: String
        var displayName: String
        @NullWhenNone var from: Int?
        @NullWhenNone var to: Int?
    }

    struct Change: Encodable {
        var at: Date
        var kind: String
        @NullWhenNone var roundID: String?
        @NullWhenNone var challengeID: String?
        var moves: [Move]
    }

    var tagsID: String
    var changes: [Change]

    init(_ ledger: BagTags.Ledger, names: [UUID: String]) {
        tagsID = Format.id(ledger.pool.id)
        changes = ledger.history.map { change in
            Change(
                at: change.at, kind: change.kind.rawValue, roundID: change.roundID.map(Format.id),
                challengeID: change.challenge.map { Format.id($0.id) },
                moves: change.movements.map {
                    Move(playerID: Format.id($0.playerID), displayName: names[$0.playerID] ?? "", from: $0.from, to: $0.to)
                })
        }
    }
}

struct PlayerTagsResponse: ResponseEncodable {
    struct Item: Encodable {
        var tagsID: String
        var name: String
        @NullWhenNone var tag: Int?
        @NullWhenNone var since: Date?
        @NullWhenNone var best: Int?
        var roundsAsFirst: Int
    }

    var playerID: String
    var tags: [Item]

    init(playerID: UUID, _ tags: [(pool: TagPool, record: BagTags.PlayerRecord)]) {
        self.playerID = Format.id(playerID)
        self.tags = tags.map {
            Item(
                tagsID: Format.id($0.pool.id), name: $0.pool.name, tag: $0.record.tag, since: $0.record.since, best: $0.record.best,
                roundsAsFirst: $0.record.roundsAsFirst)
        }
    }
}

/// `POST /api/v1/tags/{id}/challenges`: a coach names the challenger; a player challenges
/// for themselves.
struct TagChallengeBody: Decodable {
    var challengerID: String?
    var challengedIDs: [String]
    /// Days to answer (default 7).
    var days: Int?
}

/// `POST /api/v1/tags/{id}/challenges/{challengeID}`.
struct TagAnswerBody: Decodable {
    var answer: String
    /// The course an accepted challenge is played on.
    var courseID: String?
}

struct TagChallengeResponse: ResponseEncodable {
    var id: String
    var tagsID: String
    var challengerID: String
    var challengedIDs: [String]
    var deadline: Date
    /// open, accepted, declined, withdrawn, or lapsed (open past its deadline).
    var status: String
    @NullWhenNone var roundID: String?

    init(_ challenge: TagChallenge, at moment: Date) {
        id = Format.id(challenge.id)
        tagsID = Format.id(challenge.poolID)
        challengerID = Format.id(challenge.challengerID)
        challengedIDs = challenge.challengedIDs.map(Format.id)
        deadline = challenge.deadline
        status = challenge.state(at: moment)
        roundID = challenge.roundID.map(Format.id)
    }
}

struct TagChallengeListResponse: ResponseEncodable {
    var tagsID: String
    var challenges: [TagChallengeResponse]
}
