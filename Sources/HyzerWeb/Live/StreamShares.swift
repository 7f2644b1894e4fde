import Synchronization

/// How many live streams may be open: in all, so that pages and `/healthz` always find a
/// connection (streams never take the last `headroom` of the connection limit), and per
/// client address, so that one client cannot take them all. One client's connections of any
/// kind are bounded too (its streams and 64 more, never more than the streams' total), so
/// idle kept-alive connections cannot take the rest. Checked on the event loops, hence a
/// lock rather than an actor.
final class StreamShares: Sendable {
    enum Refusal: Equatable, Sendable {
        /// This client has its whole share open.
        case clientFull(limit: Int)
        /// Every stream the server keeps for streams is open.
        case serverFull
    }

    let total: Int
    let perClient: Int
    /// Connections one peer address may hold; 0: no limit.
    let connectionsPerClient: Int
    private let state = Mutex<(open: Int, byClient: [String: Int])>((0, [:]))
    private let connections = Mutex<[String: Int]>([:])

    /// `connectionLimit`: the server's; a tenth of it (at least 16, at most half) is kept
    /// for everything that is not a stream. `perClient` 0: no share per client.
    init(connectionLimit: Int, perClient: Int) {
        let headroom = min(max(16, connectionLimit / 10), connectionLimit / 2)
        total = max(1, connectionLimit - headroom)
        self.perClient = perClient
        connectionsPerClient = perClient > 0 ? min(perClient + 64, total) : 0
    }

    /// A new connection from `peer`: false when that address holds its share already.
    func takeConnection(for peer: String) -> Bool {
        guard connectionsPerClient > 0 else { return true }
        return connections.withLock { held in
            let count = held[peer, default: 0]
            guard count < connectionsPerClient else { return false }
            held[peer] = count + 1
            return true
        }
    }

    func giveBackConnection(for peer: String) {
        guard connectionsPerClient > 0 else { return }
        connections.withLock { held in
            let count = held[peer, default: 0] - 1
            held[peer] = count > 0 ? count : nil
        }
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

}
