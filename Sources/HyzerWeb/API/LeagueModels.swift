import Foundation
import Hummingbird
import HyzerCore
import HyzerStore
import NIOCore

// Bodies and answers of the setup and league API (DESIGN.md, "Contracts"). Bodies are typed
// JSON: a wrong type or a missing key is a 422 naming the field.

struct CourseBody: Decodable {
    struct HoleBody: Decodable {
        var number: Int
        var par: Int
        var distance: Int?

        /// The course form's draft for a list of holes, so the API checks what the form checks.
        static func draft(name: String?, holes: [HoleBody]) throws(FieldErrors) -> CourseDraft {
            let numbers = holes.map(\.number)
            guard numbers == Array(stride(from: 1, through: numbers.count, by: 1)) else {
                throw FieldErrors("holes", "Holes are numbered 1, 2, 3… in order.")
            }
            return CourseDraft(
                name: name, holeCount: String(holes.count), holePars: holes.map { String($0.par) },
                holeDistances: holes.map { $0.distance.map(String.init) ?? "" })
        }
    }

    var name: String?
    var holes: [HoleBody]
}

// Editing: every field optional, at least one given.
struct PlayerPatchBody: Decodable {
    var displayName: String?
    var handle: String?
    /// The usual division; "" clears it.
    var division: String?
}

struct CoursePatchBody: Decodable {
    var name: String?
    var holes: [CourseBody.HoleBody]?
}

struct EventPatchBody: Decodable {
    var name: String?
    /// "YYYY-MM-DD"; "" clears the date.
    var playedOn: String?
    var divisions: [String]?
    /// Opens (true) or closes a league night's check-in link.
    var checkInOpen: Bool?
}

struct RoundPatchBody: Decodable {
    var name: String?
    /// A bag-tag pool's id makes it a tag round; "" makes it an ordinary round again.
    var tagsID: String?
}

struct LateArrivalBody: Decodable {
    var playerID: String
    var division: String?
    /// The card to join (optional: a coach can place them later).
    var cardID: String?
}

struct ArchivedResponse: ResponseEncodable {
    var archived: Bool
}

struct PlayerBody: Decodable {
    var displayName: String?
    var handle: String?
    var role: String?
}

struct EventBody: Decodable {
    var name: String?
    var divisions: [String]?
    var seasonID: String?
    var playedOn: String?
}

struct RoundBody: Decodable {
    struct Entry: Decodable {
        var playerID: String
        var division: String?
    }

    var courseID: String?
    var name: String?
    var eventID: String?
    var start: Bool?
    /// May be left out by a draw: it then draws from the night's check-ins.
    var players: [Entry]?
    /// Makes it a tag round of that bag-tag pool.
    var tagsID: String?
    var format: String?
    var teams: [TeamEntry]?
    var draw: DrawEntry?
    var caliRule: String?
    var matchID: String?
    var putting: PuttingSetup?
    var mulligans: MulliganRule?

    struct TeamEntry: Decodable {
        var playerIDs: [String]
        var cali: Bool?
    }

    struct DrawEntry: Decodable {
        var teamsOf: Int?
        var balance: String?
    }
}

struct CardsBody: Decodable {
    struct CardBody: Decodable {
        var name: String?
        var startingHole: Int?
        var teeTime: Date?
        var playerIDs: [String]
    }

    struct AutoBody: Decodable {
        var shotgun: Bool?
        var firstTee: Date?
        /// A random draw within each division instead of leaders together.
        var draw: Bool?
    }

    var cards: [CardBody]?
    var auto: AutoBody?
}

struct CardHoleBody: Decodable {
    struct Entry: Decodable {
        var playerID: String
        var strokes: StrokesValue
        var penalties: Int?
        var mulligans: Int?
    }

    var scores: [Entry]
}

struct SignatureBody: Decodable {
    var playerID: String
}

struct PlayoffBody: Decodable {
    var division: String?
    var winner: String
}

struct CourseResponse: ResponseEncodable {
    var id: String
    var name: String
    var holes: [RoundDetailResponse.HoleItem]
    var totalPar: Int

    init(_ course: Course) {
        id = Format.id(course.id)
        name = course.name
        holes = course.holes.map { .init(number: $0.number, par: $0.par, distance: $0.distance) }
        totalPar = course.totalPar
    }
}

struct CourseListResponse: ResponseEncodable {
    var courses: [CourseResponse]
}

struct PlayerResponse: ResponseEncodable {
    var id: String
    var displayName: String
    var handle: String
    /// Left out for anonymous readers: who the admins are is not for strangers.
    var role: String?
    /// The usual division, when the player has one.
    var division: String?
    /// Their PDGA number, when known. (Emails are for coaches' pages only.)
    var pdgaNumber: Int?

    init(_ player: Player, showingRole: Bool = true) {
        pdgaNumber = player.pdgaNumber
        id = Format.id(player.id)
        displayName = player.displayName
        handle = player.handle.value
        role = showingRole ? player.role.rawValue : nil
        division = player.division.isEmpty ? nil : player.division
    }
}

struct PlayerListResponse: ResponseEncodable {
    var players: [PlayerResponse]
    /// An import's columns that were not read (absent when there were none).
    var ignoredColumns: [String]? = nil
}

struct EventResponse: ResponseEncodable {
    struct RoundItem: Encodable {
        var id: String
        var name: String
        var status: String
    }

    var id: String
    var name: String
    var divisions: [String]
    var rounds: [RoundItem]
    /// The season the event is a league night of; `null` for a night of no season.
    @NullWhenNone var seasonID: String?
    /// The day it is played ("YYYY-MM-DD"); `null` when the coach set none.
    @NullWhenNone var playedOn: String?
    /// Whether the night's check-in link (`checkInLink`, a path on this server) works now.
    var checkInOpen: Bool
    var checkInLink: String

    init(_ event: Event, rounds: [RoundSnapshot] = []) {
        seasonID = event.seasonID.map(Format.id)
        playedOn = event.playedOn
        let over = !rounds.isEmpty && rounds.allSatisfy { $0.round.status == .completed }
        checkInOpen = event.checkInOpen(at: Date()) && !over
        checkInLink = "/c/\(event.checkInCode)"
        id = Format.id(event.id)
        name = event.name
        divisions = event.divisions
        self.rounds = rounds.map { RoundItem(id: Format.id($0.round.id), name: $0.round.name, status: $0.round.status.rawValue) }
    }
}

struct EventListResponse: ResponseEncodable {
    var events: [EventResponse]
}

struct EventStandingsResponse: ResponseEncodable {
    struct RoundScore: Encodable {
        var roundID: String
        var strokes: Int
        var toPar: Int
        var thru: Int
        var dnf: Bool
    }

    struct Entry: Encodable {
        var position: String
        var playerID: String
        var displayName: String
        var division: String
        var toPar: Int
        var total: Int
        var thru: Int
        var rounds: [RoundScore]
        var dnf: Bool
        var playoff: String?
        /// On a league night with handicaps, for players who have scored and not retired: the
        /// night's handicap (absent: none yet), net to par and the net position.
        var handicap: Double?
        var net: Int?
        var netPosition: String?
    }

    struct Division: Encodable {
        var name: String
        var playoffPending: Bool
        var standings: [Entry]
    }

    var eventID: String
    var final: Bool
    var divisions: [Division]

    /// `handicaps`: on a league night with handicaps, each player's (value, throws off tonight).
    init(_ standings: EventStandings, night: (season: Season, handicaps: [UUID: (value: Double, strokes: Int)]?, unplaced: Bool)?) {
        self.init(standings, handicaps: night?.handicaps, unplaced: night?.unplaced ?? false)
    }

    init(_ standings: EventStandings, handicaps: [UUID: (value: Double, strokes: Int)]? = nil, unplaced: Bool = false) {
        eventID = Format.id(standings.eventID)
        final = standings.isFinal
        divisions = standings.divisions.map { division in
            let net = handicaps.map { EventNet.of(division, handicaps: $0, unplaced: unplaced) } ?? [:]
            return Division(
                name: division.name, playoffPending: division.playoffPending,
                standings: division.entries.map { entry in
                    Entry(
                        position: entry.position, playerID: Format.id(entry.playerID), displayName: entry.displayName, division: entry.division,
                        toPar: entry.toPar, total: entry.total, thru: entry.thru,
                        rounds: entry.rounds.compactMap { $0 }.map {
                            RoundScore(roundID: Format.id($0.roundID), strokes: $0.strokes, toPar: $0.toPar, thru: $0.thru, dnf: $0.dnf)
                        },
                        dnf: entry.dnf, playoff: entry.playoff?.rawValue, handicap: net[entry.playerID]?.handicap,
                        net: net[entry.playerID]?.net, netPosition: net[entry.playerID]?.position)
                })
        }
    }
}

struct CardsResponse: ResponseEncodable {
    struct CardItem: Encodable {
        var id: String
        var name: String
        var startingHole: Int
        var teeTime: Date?
        var playerIDs: [String]
        var holeOrder: [Int]
    }

    var roundID: String
    var cards: [CardItem]

    init(_ snapshot: RoundSnapshot) {
        roundID = Format.id(snapshot.round.id)
        let holes = snapshot.course.holes.map(\.number)
        cards = snapshot.round.cards.map {
            CardItem(
                id: Format.id($0.id), name: $0.name, startingHole: $0.startingHole, teeTime: $0.teeTime,
                playerIDs: $0.playerIDs.map(Format.id), holeOrder: $0.holeOrder(holes))
        }
    }
}

extension DecodingError {
    /// A typed body that does not match: a 422 naming the field; JSON that is not JSON: a 400.
    var problem: Problem {
        func path(_ context: Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".").replacingOccurrences(
                of: ".[", with: "[")
        }
        switch self {
        case .keyNotFound(let key, let context):
            let field = (path(context).isEmpty ? "" : path(context) + ".") + key.stringValue
            return Problem(invalid: FieldErrors(field, "\(field) is required."))
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            // An empty path is the document itself (a list where an object belongs).
            let named = path(context).isEmpty ? "The body" : path(context)
            return Problem(invalid: FieldErrors(path(context), "\(named) has the wrong type\(path(context).isEmpty ? ": send a JSON object" : "")."))
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return Problem(invalid: FieldErrors(path(context), "\(path(context)): \(context.debugDescription)"))
        default:
            return Problem(status: .badRequest, title: "Malformed body", detail: "The body is not a JSON document.")
        }
    }
}

extension Request {
    /// Decodes a typed JSON body; a mismatch is a problem document, never a 500.
    func decodeBody<T: Decodable>(_ type: T.Type, context: AppRequestContext) async throws -> T {
        guard let media = MediaType(from: headers[.contentType] ?? ""), media.isType(.applicationJson) else {
            throw HTTPError(.unsupportedMediaType, message: "Send the body as application/json.")
        }
        return try StrictJSON.decode(type, from: try await self.body.collect(upTo: context.maxUploadSize))
    }
}
