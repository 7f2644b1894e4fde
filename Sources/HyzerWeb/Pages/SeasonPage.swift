import Foundation
import HyzerCore
import HyzerStore

/// A season: its rules in words, its nights, and each division's table.
struct SeasonPage: Sendable {
    struct Night: Sendable {
        var name: String
        /// Its day in words, when the night has one.
        var day: String?
        var link: String
        var rounds: String
    }

    struct Cell: Sendable {
        var text: String
        var counted: Bool
    }

    struct Row: Sendable {
        var position: String
        var playerID: String
        var displayName: String
        var points: Int
        var nightsCounted: Int
        var cells: [Cell]
    }

    struct Division: Sendable {
        var name: String
        var rows: [Row]
        var hasName: Bool
    }

    var title: String
    var id: String
    var dates: String
    var rules: String
    var handicapRule: String?
    var nights: [Night]
    var hasNights: Bool
    var nightHeaders: [String]
    var divisions: [Division]
    var hasStandings: Bool
    var newNightLink: String
    var countsBest: Bool
    var archived: Bool

    init(_ snapshot: SeasonSnapshot) {
        let season = snapshot.season
        title = season.name
        id = Format.id(season.id)
        dates = [season.startsOn, season.endsOn].compactMap { $0 }.joined(separator: " – ")
        rules = season.points.description
        handicapRule = season.handicap?.description
        nights = snapshot.nights.map {
            Night(
                name: $0.event.name, day: $0.event.playedOn.flatMap(Format.day), link: "/events/\(Format.id($0.event.id))",
                rounds: $0.boards.count == 1 ? "1 round" : "\($0.boards.count) rounds"
            )
        }
        hasNights = !nights.isEmpty
        nightHeaders = snapshot.nights.indices.map { "N\($0 + 1)" }
        let order = snapshot.nights.map(\.event.id)
        let standings = snapshot.standings
        divisions = standings.divisions.map { division in
            Division(
                name: division.name,
                rows: division.entries.map { entry in
                    let byNight = Dictionary(uniqueKeysWithValues: entry.nights.map { ($0.eventID, $0) })
                    return Row(
                        position: entry.position, playerID: Format.id(entry.playerID), displayName: entry.displayName, points: entry.points,
                        nightsCounted: entry.nightsCounted,
                        cells: order.map { night in
                            guard let played = byNight[night] else { return Cell(text: "", counted: true) }
                            return Cell(text: played.place == nil ? "DNF·\(played.points)" : String(played.points), counted: played.counted)
                        })
                }, hasName: !division.name.isEmpty)
        }
        hasStandings = divisions.contains { !$0.rows.isEmpty }
        newNightLink = "/events/new?seasonID=\(id)"
        countsBest = season.points.bestNights != nil
        archived = season.archived
    }
}
