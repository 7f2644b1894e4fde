import Foundation
import Hummingbird
import HyzerCore

// The JSON API's shapes, exactly as DESIGN.md's "Contracts" names them. Extend, never rename.

struct RoundListResponse: ResponseEncodable {
    struct Item: Encodable {
        var id: String
        var name: String
        var courseName: String
        var status: String
        /// `null` for a round not yet started.
        @NullWhenNone var startedAt: Date?
    }

    var rounds: [Item]
    /// This page (`?page=N`, 1 by default: live rounds first, then the newest) and the next
    /// one, `null` on the last.
    var page: Int
    @NullWhenNone var nextPage: Int?

    init(_ summaries: [RoundSummary], page: Int = 1, hasMore: Bool = false) {
        rounds = summaries.map {
            Item(id: Format.id($0.id), name: $0.name, courseName: $0.courseName, status: $0.status.rawValue, startedAt: $0.startedAt)
        }
        self.page = page
        nextPage = hasMore ? page + 1 : nil
    }
}

struct RoundDetailResponse: ResponseEncodable {
    struct HoleItem: Encodable {
        var number: Int
        var par: Int
        var distance: Int?
    }

    struct PlayerItem: Encodable {
        var id: String
        var displayName: String
        var handle: String
        /// Present in a round with divisions.
        var division: String?
    }

    var id: String
    var name: String
    var status: String
    var courseName: String
    var holes: [HoleItem]
    var players: [PlayerItem]
    /// Present for a round of an event.
    var eventID: String?
    /// Present for a tag round: its bag-tag pool.
    var tagsID: String?
    /// "stroke", or a team format with its teams and how its cali plays.
    var format: String
    var teams: [TeamItem]?
    var caliRule: String?
    /// On a putting round: its layout and its lies (the `holes`, numbered the same).
    var putting: PuttingItem?
    /// On a mulligan night: the allowance and each player's mulligans, derived from the sales
    /// and the current scores.
    var mulligans: MulligansItem?

    struct MulligansItem: Encodable {
        var given: Int
        var forSale: Int
        var priceCents: Int
        var players: [MulliganAccount]
    }

    struct PuttingItem: Encodable {
        var stations: Int
        var distances: [PuttingSetup.Distance]
        var putts: Int
        var maxPoints: Int
        var lies: [PuttingSetup.Lie]
    }

    struct TeamItem: Encodable {
        var id: String
        var name: String
        var playerIDs: [String]
        var cali: Bool
    }

    init(_ snapshot: RoundSnapshot) {
        format = snapshot.round.format.rawValue
        caliRule = snapshot.round.caliRule?.rawValue
        putting = snapshot.round.putting.map { setup in
            PuttingItem(
                stations: setup.stations, distances: setup.distances, putts: setup.putts, maxPoints: setup.maxPoints,
                lies: setup.lies)
        }
        mulligans = snapshot.round.mulligans.map { rule in
            MulligansItem(
                given: rule.given, forSale: rule.forSale, priceCents: rule.priceCents,
                players: MulliganBook.accounts(snapshot, scores: CurrentScores(events: snapshot.events)))
        }
        let names = snapshot.playerNames
        teams =
            snapshot.round.teams.isEmpty
            ? nil
            : snapshot.round.teams.map { TeamItem(id: Format.id($0.id), name: $0.name(names), playerIDs: $0.playerIDs.map(Format.id), cali: $0.cali) }
        eventID = snapshot.round.eventID.map(Format.id)
        tagsID = snapshot.round.tagsID.map(Format.id)
        id = Format.id(snapshot.round.id)
        name = snapshot.round.name
        status = snapshot.round.status.rawValue
        courseName = snapshot.course.name
        // A putting round's holes are its lies (the players stay the players: no teams there).
        let course = snapshot.round.putting == nil ? snapshot.course : snapshot.scoringView.course
        holes = course.holes.map { HoleItem(number: $0.number, par: $0.par, distance: $0.distance) }
        let players = Dictionary(snapshot.players.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.players = snapshot.round.playerIDs.compactMap { players[$0] }.map {
            PlayerItem(id: Format.id($0.id), displayName: $0.displayName, handle: $0.handle.value, division: snapshot.round.divisions[$0.id])
        }
    }
}

struct StandingsResponse: ResponseEncodable {
    struct Entry: Encodable {
        var position: String
        var playerID: String
        var displayName: String
        var toPar: Int
        var thru: Int
        var strokes: Int
        var dnf: Bool
        var division: String?
        /// Present once the player has signed their card.
        var signed: Bool?
        /// On a league night with handicaps: net to par and its position (for every entry), and
        /// the throws the night's frozen handicap takes off this round (absent: none yet).
        var handicap: Int?
        var net: Int?
        var netPosition: String?
        /// On a team round: the team (also in `playerID`) and its players.
        var teamID: String?
        var playerIDs: [String]?
        /// On a putting round: the points scored (`strokes` is the putts made).
        var points: Int?
        /// On a mulligan night: the mulligans used over the current scores.
        var mulligans: Int?

        init(_ entry: StandingsEntry, signed: Bool, hasNet: Bool, team: Team? = nil) {
            points = entry.points
            mulligans = entry.mulligans
            if let team {
                teamID = Format.id(team.id)
                playerIDs = team.playerIDs.map(Format.id)
            }
            position = entry.position
            playerID = Format.id(entry.playerID)
            displayName = entry.displayName
            toPar = entry.toPar
            thru = entry.thru
            strokes = entry.strokes
            dnf = entry.dnf
            division = entry.division.isEmpty ? nil : entry.division
            self.signed = signed ? true : nil
            if hasNet {
                handicap = entry.handicap
                net = entry.net
                netPosition = entry.netPosition
            }
        }
    }

    struct Division: Encodable {
        var name: String
        var standings: [Entry]
    }

    /// Who entered what: each disagreeing entry of a mismatch.
    struct ConflictEntry: Encodable {
        var eventID: String
        var strokes: StrokesValue
        var penalties: Int
        /// On a mulligan night, when any were used.
        var mulligans: Int?
        var reportedBy: String?
        var reportedByName: String?
    }

    struct Conflict: Encodable {
        var playerID: String
        var hole: Int
        var eventIDs: [String]
        var entries: [ConflictEntry]
    }

    var roundID: String
    var version: Int
    var standings: [Entry]
    var divisions: [Division]
    var conflicts: [Conflict]

    init(_ board: RoundBoard) {
        let standings = board.standings
        let signed = Set(board.snapshot.signatures.map(\.playerID))
        let names = board.snapshot.names
        roundID = Format.id(board.snapshot.round.id)
        version = board.version
        let teams = Dictionary(board.snapshot.round.teams.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func entry(_ standing: StandingsEntry) -> Entry {
            Entry(
                standing, signed: signed.contains(standing.playerID), hasNet: standings.hasNet, team: teams.isEmpty ? nil : teams[standing.playerID])
        }
        self.standings = standings.entries.map(entry)
        divisions = standings.divisions.map { Division(name: $0.name, standings: $0.entries.map(entry)) }
        conflicts = standings.conflicts.map { conflict in
            let leaves = board.scores[conflict.playerID, conflict.hole]?.leaves ?? []
            return Conflict(
                playerID: Format.id(conflict.playerID), hole: conflict.hole, eventIDs: conflict.eventIDs.map(Format.id),
                entries: leaves.map {
                    ConflictEntry(
                        eventID: Format.id($0.id), strokes: StrokesValue($0.strokes), penalties: $0.penalties,
                        mulligans: $0.mulligans > 0 ? $0.mulligans : nil,
                        reportedBy: $0.reportedBy.map(Format.id), reportedByName: $0.reportedBy.flatMap { names[$0] })
                })
        }
    }
}

struct ScoreEventItem: Encodable {
    var id: String
    var roundID: String
    var playerID: String
    var hole: Int
    var strokes: StrokesValue
    var dnf: Bool
    @NullWhenNone var reportedBy: String?
    var deviceID: String
    @NullWhenNone var supersedes: String?
    var resolves: [String]
    var recordedAt: Date
    var hlc: String
    var penalties: Int
    /// Mulligans used on the hole; absent when none (every score outside a mulligan night).
    var mulligans: Int?
    /// In a round's list of scores: whether this event is a current score of its hole
    /// (not superseded nor resolved) — what a correction names in `supersedes`. Left out
    /// elsewhere; `supersedes` and `reportedBy` are always present, as the contract lists them.
    var current: Bool?

    init(_ event: ScoreEvent, current: Bool? = nil) {
        self.current = current
        penalties = event.penalties
        mulligans = event.mulligans > 0 ? event.mulligans : nil
        id = Format.id(event.id)
        roundID = Format.id(event.roundID)
        playerID = Format.id(event.playerID)
        hole = event.hole
        strokes = StrokesValue(event.strokes)
        dnf = event.strokes == .dnf
        reportedBy = event.reportedBy.map(Format.id)
        deviceID = Format.id(event.deviceID)
        supersedes = event.supersedes.map(Format.id)
        resolves = event.resolves.map(Format.id)
        recordedAt = event.recordedAt.date
        hlc = event.recordedAt.description
    }
}

/// Strokes as the API writes them: a number, or "DNF".
struct StrokesValue: Codable {
    let strokes: Strokes
    init(_ strokes: Strokes) { self.strokes = strokes }

    /// A whole number from 1 to 99, or "DNF".
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int.self), case .success(let strokes) = Strokes.validated(value) {
            self.strokes = strokes
        } else if let text = try? container.decode(String.self), text == "DNF" {
            strokes = .dnf
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "strokes must be a whole number from 1 to 99, or \"DNF\".")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch strokes {
        case .count(let value): try container.encode(value)
        case .dnf: try container.encode("DNF")
        }
    }
}

struct ScoreCreatedResponse: ResponseEncodable {
    var event: ScoreEventItem
    var duplicate: Bool?
}

/// `POST /api/v1/rounds/{id}/scores`, typed (see `StrictJSON`): ids are strings, `hole` and
/// `penalties` whole numbers, `strokes` a whole number or "DNF".
struct ScorePayload: Decodable {
    var id: String?
    /// On a team round the team's id, as `teamID` or here.
    var playerID: String?
    var teamID: String?
    var hole: Int
    /// The throws, or on a putting round `made`: the putts made from the lie `hole`.
    var strokes: StrokesValue?
    var made: Int?
    var supersedes: String?
    var penalties: Int?
    /// Mulligans used on the hole, on a mulligan night.
    var mulligans: Int?
}

/// `GET /api/v1/rounds/{id}/scores`: every score event of the round, in the order recorded.
struct RoundScoresResponse: ResponseEncodable {
    var roundID: String
    var events: [ScoreEventItem]

    init(_ board: RoundBoard) {
        roundID = Format.id(board.snapshot.round.id)
        let current = Set(board.scores.holes.values.flatMap { $0.leaves.map(\.id) })
        events = board.snapshot.events.map { ScoreEventItem($0, current: current.contains($0.id)) }
    }
}
