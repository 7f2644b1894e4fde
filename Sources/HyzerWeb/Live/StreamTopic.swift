import Foundation
import HyzerCore
import HummingbirdCore
import NIOCore

/// What one event stream follows. Each topic numbers its own frames.
enum StreamTopic: Hashable, Sendable {
    /// `/rounds/{id}/events`: the leaderboard, plus the scorecard grid for a round page.
    case round(UUID, scorecard: Bool)
    /// `/tv/events`: the boards of every active round.
    case tv
    /// `/sync/events`: the sync-status fragment.
    case sync

    /// Which source renders the topic's frames.
    enum Source: Hashable, Sendable {
        case standings
        case sync
    }

    var source: Source {
        switch self {
        case .round, .tv: .standings
        case .sync: .sync
        }
    }

    /// The topic a `GET` target names, or nil for any other target (the router answers those,
    /// including a round id that is not a UUID: 404). Whether the round exists is the
    /// source's question.
    init?(target: String) {
        let uri = URI(target)
        let parts = uri.path.split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count {
        case 3 where parts[1] == "tv" && parts[2] == "events":
            self = .tv
        case 3 where parts[1] == "sync" && parts[2] == "events":
            self = .sync
        case 4 where parts[1] == "rounds" && parts[3] == "events":
            guard let id = UUID(text: String(parts[2])) else { return nil }
            self = .round(id, scorecard: uri.queryParameters.get("scorecard") == "1")
        default:
            return nil
        }
    }
}

/// One rendered state of a topic, complete in itself: a client that missed earlier frames
/// needs only the newest.
struct StreamFrame: Sendable {
    /// Grows with every change of the topic (a round's version; a sequence for the others).
    let version: Int
    let bytes: ByteBuffer
}
