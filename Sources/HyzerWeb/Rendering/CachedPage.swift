import Foundation

/// Every page the page cache keeps, with the parameters it is rendered from, as the
/// controller normalised them (an id as Hyzer reads it, a number clamped, a division
/// validated): two requests with one key get the same bytes, made-up parameters cannot make
/// new keys, and a page that gains a parameter must say so here or not compile.
enum CachedPage: Hashable, Sendable {
    /// The list of rounds, one page of them (1 is the newest).
    case home(page: Int)
    case round(UUID)
    /// A division's name, or nil for the whole field.
    case leaderboard(UUID, division: String?)
    /// One round pinned or every live one; the seconds a page stays up, when the URL chose them.
    case tv(pinned: UUID?, pageSeconds: Int?)
    /// `GET /api/v1/rounds/{id}/scores`: every event of a round, thousands on a long night.
    case roundScores(UUID)

    /// The same bytes for every reader (no name, menu or form token in them): one render
    /// serves every audience, API clients without cookies included.
    var isShared: Bool {
        switch self {
        case .roundScores: true
        case .home, .round, .leaderboard, .tv: false
        }
    }
}
