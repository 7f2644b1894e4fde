import Foundation
import HyzerCore
import HyzerStore

struct RoundItem: Sendable {
    var id: String
    var name: String
    var courseName: String
    var status: String
    var when: String
    var playerCount: Int

    init(_ summary: RoundSummary) {
        id = Format.id(summary.id)
        name = summary.name
        courseName = summary.courseName
        status = summary.status.rawValue
        when = Format.date(summary.startedAt ?? summary.createdAt)
        playerCount = summary.playerCount
    }
}
