import Synchronization

/// How many live streams may be open: in all, so that pages and `/healthz` always find a
/// connection (streams never take the last `headroom` of the connection limit), and per
/// client address, so that one client cannot take them all. Checked on the event loops as a
/// stream is asked for, hence a lock rather than an actor.
final class StreamShares: Sendable {
    enum Refusal: Equatable, Sendable {
        /// This client has its whole share open.
        case clientFull(limit: Int)
        /// Every stream the server keeps for streams is open.
        case serverFull
    }

    let total: Int
    let perClient: Int
    private let state = Mutex<(open: Int, byClient: [String: Int])>((0, [:]))

    /// `connectionLimit`: the server's; a tenth of it (at least 16, at most half) is kept
    /// for everything that is not a stream. `perClient` 0: no share per client.
    init(connectionLimit: Int, perClient: Int) {
        let headroom = min(max(16, connectionLimit / 10), connectionLimit / 2)
        total = max(1, connectionLimit - headroom)
        self.perClient = perClient
    }

    func take(for client: String) -> Refusal? {
        state.withLock { state in
            let held = state.byClient[client, default: 0]
            if perClient > 0, held >= perClient { return .clientFull(limit: perClient) }
            if state.open >= total { return .serverFull }
            state.open += 1
            state.byClient[client] = held + 1
            return nil
        }
    }

    func giveBack(for client: String) {
        state.withLock { state in
            state.open = max(0, state.open - 1)
            let held = state.byClient[client, default: 0] - 1
            state.byClient[client] = held > 0 ? held : nil
        }
    }

    var open: Int { state.withLock { $0.open } }
}
