import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// `POST /api/v1/events/{id}/bracket`: seeds by hand, best first, or players seeded by rating
/// or handicap; a deadline per bracket round.
struct BracketBody: Decodable {
    var kind: String?
    var seeds: [String]?
    var players: [String]?
    var seedBy: String?
    var deadlines: [Date?]?
}

struct ConcessionBody: Decodable {
    var matchID: String
    var playerID: String
}

/// A bracket as it stands: every match with its sides, holes up and result, derived from the
/// match rounds' scores.
struct BracketResponse: ResponseEncodable {
    struct MatchItem: Encodable {
        var id: String
        var a: String?
        var b: String?
        var aName: String?
        var bName: String?
        var seedA: Int?
        var seedB: Int?
        /// The round that plays the match (the latest, once sudden death has its own).
        var roundID: String?
        var roundIDs: [String]
        /// Holes up for a (negative: b is up).
        var holesUp: Int
        var played: Int
        @NullWhenNone var result: String?
        var winner: String?
        var bye: Bool
        var deadline: Date?
    }

    struct RoundItem: Encodable {
        var number: Int
        var name: String
        var matches: [MatchItem]
    }

    var id: String
    var eventID: String
    var kind = "single"
    var seeds: [String]
    var champion: String?
    var rounds: [RoundItem]

    init(_ snapshot: DomainStore.BracketSnapshot) {
        id = Format.id(snapshot.bracket.id)
        eventID = Format.id(snapshot.bracket.eventID)
        seeds = snapshot.bracket.seeds.map(Format.id)
        champion = snapshot.state.champion.map(Format.id)
        let count = snapshot.state.rounds.count
        rounds = snapshot.state.rounds.enumerated().map { index, matches in
            RoundItem(
                number: index + 1, name: BracketRoundName.name(index + 1, of: count),
                matches: matches.map { match in
                    MatchItem(
                        id: Format.id(match.id), a: match.a.map(Format.id), b: match.b.map(Format.id),
                        aName: match.a.flatMap { snapshot.names[$0] }, bName: match.b.flatMap { snapshot.names[$0] },
                        seedA: match.seedA, seedB: match.seedB, roundID: match.roundIDs.last.map(Format.id), roundIDs: match.roundIDs.map(Format.id),
                        holesUp: match.holesUp, played: match.play?.played ?? 0, result: match.result, winner: match.winner.map(Format.id),
                        bye: match.bye, deadline: match.deadline)
                })
        }
    }
}

/// "Final", "Semi-finals", "Quarter-finals", else "Round 1"…
enum BracketRoundName {
    static func name(_ number: Int, of count: Int) -> String {
        switch count - number {
        case 0: "Final"
        case 1: "Semi-finals"
        case 2: "Quarter-finals"
        default: "Round \(number)"
        }
    }
}
