import Synchronization

/// Group commit: callers that arrive while a commit is under way wait in a queue, and the
/// next commit takes them all at once — one transaction, one fsync, however many callers.
///
/// No task is spawned: the caller at the head of the queue leads. It commits the whole
/// queue in its own task, answers everyone in the batch, then hands the lead to the first
/// caller that queued meanwhile (or lets it lapse when nobody did).
final class GroupCommit<Item: Sendable, Answer: Sendable>: Sendable {
    private enum Turn {
        case answered(Result<Answer, any Error>)
        case lead
    }

    private struct Waiter {
        var id: UInt64
        var item: Item
        var continuation: CheckedContinuation<Turn, Never>
    }

    private struct State {
        var queue: [Waiter] = []
        var leading = false
        var nextID: UInt64 = 0
        /// Batches committed and items in them, for tests and metrics.
        var batches = 0
        var items = 0
    }

    private let state = Mutex(State())
    /// A bound on one transaction: callers beyond it wait for the next.
    static var maximumBatch: Int { 256 }

    /// What a batch's commit reports: one result per item, in order, or the error of the
    /// whole transaction.
    typealias Outcome = Result<[Result<Answer, any Error>], any Error>

    /// Commits `item` with whatever else is queued. `commit` gets the batch in arrival order
    /// and returns one result per item, in order; when it throws, every item of the batch
    /// gets the error (nothing of a failed transaction is acknowledged). It runs in a task
    /// of its own: the leader's request being cancelled (its client gone, a shutdown) must
    /// not interrupt the transaction that answers everyone else.
    func submit(_ item: Item, commit: @escaping @Sendable ([Item]) async throws -> [Result<Answer, any Error>]) async throws -> Answer {
        try await submit(item) { items, done in
            Task {
                do { done(.success(try await commit(items))) } catch { done(.failure(error)) }
            }
        }
    }

    /// The same, with a commit that is started and reports once through `done`, whatever
    /// becomes of the task that started it: a database queue's callback needs no task of
    /// its own to outlive a cancelled leader (one hop less for every batch).
    func submit(_ item: Item, startingCommit commit: @escaping @Sendable ([Item], @escaping @Sendable (Outcome) -> Void) -> Void) async throws
        -> Answer
    {
        var id: UInt64 = 0
        let turn: Turn = await withCheckedContinuation { continuation in
            let leadNow = state.withLock { state in
                id = state.nextID
                state.nextID += 1
                state.queue.append(Waiter(id: id, item: item, continuation: continuation))
                guard !state.leading else { return false }
                state.leading = true
                return true
            }
            if leadNow { continuation.resume(returning: .lead) }
        }
        if case .answered(let result) = turn { return try result.get() }

        let batch = state.withLock { state in
            // The leader heads the queue (the first caller, or the first one handed the lead).
            let batch = Array(state.queue.prefix(Self.maximumBatch))
            state.queue.removeFirst(batch.count)
            state.batches += 1
            state.items += batch.count
            return batch
        }
        let items = batch.map(\.item)
        let outcome: Outcome = await withCheckedContinuation { continuation in
            commit(items) { continuation.resume(returning: $0) }
        }
        let results: [Result<Answer, any Error>]
        switch outcome {
        case .success(let answers):
            precondition(answers.count == batch.count, "a group commit answers every item")
            results = answers
        case .failure(let error):
            results = Array(repeating: .failure(error), count: batch.count)
        }
        var mine: Result<Answer, any Error>?
        for (waiter, result) in zip(batch, results) {
            if waiter.id == id { mine = result } else { waiter.continuation.resume(returning: .answered(result)) }
        }
        let next = state.withLock { state -> Waiter? in
            guard let first = state.queue.first else {
                state.leading = false
                return nil
            }
            return first
        }
        next?.continuation.resume(returning: .lead)
        guard let mine else { preconditionFailure("the leader's item is in its batch") }
        return try mine.get()
    }

    /// Callers queued for the next commit (not those of the commit under way).
    var waiting: Int {
        state.withLock { $0.queue.count }
    }

    /// How many batches were committed and how many items they held.
    var counts: (batches: Int, items: Int) {
        state.withLock { ($0.batches, $0.items) }
    }
}
