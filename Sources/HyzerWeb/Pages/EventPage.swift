import Foundation
import HyzerCore
import HyzerStore

struct EventPage: Sendable {
    var title: String
    var board: EventBoardView
    var form: FormState
    /// The season this is a league night of, if any.
    var seasonLink: String?
    var seasonName: String?
    /// The night's day in words, when it has one.
    var playedOn: String?
    /// Who is checked in, and the forms to check in (league nights of a season).
    var checkIn: CheckInSection?
    /// How each layout's holes play over the event's rounds.
    var holeStats: [HoleStatisticsView] = []
    /// The event has a single-elimination bracket.
    var hasBracket = false
}
