import Foundation
import HyzerCore
import HyzerStore

struct HomePage: Sendable {
    var title = "Rounds"
    var active: [RoundItem]
    var others: [RoundItem]
    var hasRounds: Bool
    var hasActive: Bool
    var hasOthers: Bool
    var events: [EventItem]
    var hasEvents: Bool

    /// Links to the neighbouring pages of rounds, when there are some.
    var newerHref: String?
    var olderHref: String?
    var hasPaging: Bool

    init(summaries: [RoundSummary], events: [Event] = [], page: Int = 1, hasMore: Bool = false) {
        // Events are listed once, with the newest rounds.
        self.events =
            page == 1
            ? events.prefix(20).map { EventItem(id: Format.id($0.id), name: $0.name, divisions: $0.divisions.joined(separator: " · ")) } : []
        hasEvents = !self.events.isEmpty
        newerHref = page > 1 ? (page == 2 ? "/" : "/?page=\(page - 1)") : nil
        olderHref = hasMore ? "/?page=\(page + 1)" : nil
        hasPaging = newerHref != nil || olderHref != nil
        if page > 1 { title = "Rounds, page \(page)" }
        active = summaries.filter { $0.status == .active }.map(RoundItem.init)
        others = summaries.filter { $0.status != .active }.map(RoundItem.init)
        hasRounds = !summaries.isEmpty
        hasActive = !active.isEmpty
        hasOthers = !others.isEmpty
    }
}
