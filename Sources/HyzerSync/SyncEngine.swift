import Foundation
import HyzerCore
import HyzerStore
import Logging
import Metrics
import ServiceLifecycle

/// Moves local changes to the cloud and everyone else's changes here. An actor and a
/// service: it starts after the server already answers, resolves the account in the
/// background, and syncs on a local write, a cloud hint, a reconnect, a periodic timer and
/// "Sync now". Local work never waits for it.
public actor SyncEngine: Service {
    public struct Configuration: Sendable {
        public var zone = "club"
        public var pushBatch = 200
        public var pullPage = 25_000
        /// A wait before pushing local writes. None by default: writes arriving together are
        /// committed together (group commit), and those arriving during a push leave in the next.
        public var debounce: Duration = .zero
        /// Pull and push even without a trigger, in case a hint was lost.
        public var fallbackInterval: Duration = .seconds(30)
        /// How long the account check may take before the cloud counts as unreachable.
        public var accountTimeout: Duration = .seconds(5)
        public var tick: Duration = .milliseconds(500)
        /// How long a recovered store waits for its refill from the cloud before it serves anyway.
        public var refillPatience: Duration = .seconds(60)
        /// Fault tests only: how late the cloud's hints are acted on (a slow link), so that a
        /// reader that does not wait for what it has seen would miss it.
        public var hintDelay: Duration = .zero
        /// Fault tests only: where the process kills itself (see `CrashPoints`).
        public var crashPoints: CrashPoints?
        /// Fault tests only: record types this engine reads as unknown, as a build older than
        /// the device that wrote them would (`HYZER_TEST_UNKNOWN_TYPES`).
        public var unknownTypes: Set<RecordType> = []

        public init() {}
    }

    public struct Status: Sendable, Equatable {
        public var cloud: String
        public var account: AccountStatus
        public var state: SyncState
        public var lastSyncAt: Date?
        public var counts: OutboxCounts
        /// Records pulled of the total, while a first sync is under way.
        public var initialSync: InitialSync?
        /// A pull has completed since the engine started: what the cloud holds is here.
        public var hasPulled = false
        /// Pulled records kept unread (`DomainStore+Quarantine`).
        public var quarantined = 0
    }

    public struct InitialSync: Sendable, Equatable {
        public var pulled: Int
        public var total: Int
    }

    enum Trigger: Sendable { case localWrite, hint, periodic, reconnect, manual }

    let stores: Stores
    let cloud: (any CloudDatabase)?
    let configuration: Configuration
    let logger: Logger

    private var account: AccountStatus
    private var state: SyncState = .idle
    private var hasPulled = false
    private var lastSyncAt: Date?
    private var counts = OutboxCounts()
    private var quarantined = 0
    private var initialSync: InitialSync?
    private var accountAttempts = 0
    /// "Identities wait for the account" is said once per outage, not at every sync.
    private var identityDeferralLogged = false
    private var nextAccountCheck = ContinuousClock.now
    private var nextPeriodic = ContinuousClock.now
    private var watchers: [UUID: AsyncStream<Status>.Continuation] = [:]
    /// The cloud's change number this device has pulled through (gaps included): a request
    /// that has seen a write at N is answered once this reaches N (read your own writes).
    private var pulledPosition: Int64 = 0
    private var positionWaiters: [UUID: (position: Int64, continuation: CheckedContinuation<Bool, Never>)] = [:]
    /// The push under way, if any: a write waiting for its records to reach the cloud waits
    /// for it rather than racing it.
    private var pushing: Task<Int, Never>?
    private var lastPublished: Status?
    private let triggers: AsyncStream<Trigger>
    private let triggerInput: AsyncStream<Trigger>.Continuation

    public init(stores: Stores, cloud: (any CloudDatabase)?, configuration: Configuration = .init(), logger: Logger) {
        self.stores = stores
        self.cloud = cloud
        self.configuration = configuration
        self.logger = logger
        account = cloud == nil ? .noAccount : .couldNotDetermine
        (triggers, triggerInput) = AsyncStream.makeStream(of: Trigger.self, bufferingPolicy: .bufferingNewest(8))
    }

    // MARK: Service

    public func run() async throws {
        do {
            let queued = try await stores.reconcile()
            if queued > 0 { logger.notice("Queued local changes missing from the outbox", metadata: ["records": "\(queued)"]) }
        } catch {
            logger.error("Could not reconcile the outbox", metadata: ["error": "\(error)"])
        }
        await applyQuarantined()
        await publish()
        guard let cloud else {
            try? await gracefulShutdown()
            return
        }
        let zone = configuration.zone
        await withDiscardingTaskGroup { group in
            if stores.isRefilling {
                // A cloud that never answers must not keep a recovered store from serving
                // what it has for good.
                group.addTask {
                    do { try await Task.sleep(for: self.configuration.refillPatience) } catch { return }
                    if self.stores.isRefilling {
                        self.logger.warning(
                            "The cloud did not answer in time: serving the recovered store without its refill; it will catch up at the next sync")
                        self.stores.finishRefill()
                    }
                }
            }
            group.addTask { await self.processTriggers() }
            group.addTask {
                // Local writes trigger a push. If watching the outbox fails it is logged and
                // watched again: until then the periodic syncs still push.
                while !Task.isCancelled {
                    do {
                        for try await pending in self.stores.outbox.pendingCounts() where pending > 0 {
                            self.trigger(.localWrite)
                        }
                        return
                    } catch is CancellationError {
                        return
                    } catch {
                        self.logger.error("Watching the outbox failed; watching it again in a second", metadata: ["error": "\(error)"])
                        do { try await Task.sleep(for: .seconds(1)) } catch { return }
                    }
                }
            }
            group.addTask {
                for await signal in cloud.hints(zone: zone) {
                    switch signal {
                    case .changed:
                        if self.configuration.hintDelay > .zero { try? await Task.sleep(for: self.configuration.hintDelay) }
                        self.trigger(.hint)
                    case .connected: self.trigger(.reconnect)
                    // Not queued behind a push that is waiting for the same dead server.
                    case .lost: await self.connectionLost()
                    }
                }
            }
            group.addTask {
                while true {
                    do { try await Task.sleep(for: self.configuration.tick) } catch { return }
                    await self.tick()
                }
            }
            trigger(.reconnect)
            try? await gracefulShutdown()
            group.cancelAll()
        }
        triggerInput.finish()
        for watcher in watchers.values { watcher.finish() }
        watchers = [:]
    }

    nonisolated func trigger(_ trigger: Trigger) {
        triggerInput.yield(trigger)
    }

    private func processTriggers() async {
        for await trigger in triggers {
            if trigger == .localWrite, configuration.debounce > .zero {
                try? await Task.sleep(for: configuration.debounce)
            }
            await handle(trigger)
        }
    }

    private func handle(_ trigger: Trigger) async {
        if !account.canPull {
            let due = ContinuousClock.now >= nextAccountCheck
            guard trigger == .manual || trigger == .reconnect || due else { return }
            await resolveAccount()
            guard account.canPull else { return }
            _ = await pushInTurn()
            await pullChanges()
            await associateIdentities()
            return
        }
        switch trigger {
        case .localWrite:
            _ = await pushInTurn()
        case .hint:
            await pullChanges()
        case .periodic, .reconnect, .manual:
            if trigger == .reconnect || trigger == .manual { await resolveAccount() }
            _ = await pushInTurn()
            await pullChanges()
            await associateIdentities()
        }
    }

    private func tick() async {
        let now = ContinuousClock.now
        if !account.canPull, account != .noAccount, now >= nextAccountCheck {
            trigger(.reconnect)
        } else if now >= nextPeriodic {
            nextPeriodic = now + configuration.fallbackInterval
            trigger(.periodic)
        } else {
            // Failed records retry on their own schedule, not only on the next local write.
            do {
                if try await stores.outbox.failedDue(now: Date()) > 0 { trigger(.localWrite) }
            } catch {
                logger.warning("Could not read which failed records are due; the next sync retries them", metadata: ["error": "\(error)"])
            }
        }
        await publish()
    }

    // MARK: Account

    /// Asks the cloud what this device may do, never for longer than the account timeout.
    public func resolveAccount() async {
        guard let cloud else { return }
        let resolved =
            // quiet: the deadline's own error is the answer: the cloud did not say in time.
            (try? await Deadline.run(configuration.accountTimeout, orThrow: { CancellationError() }) {
                await cloud.resolveAccount()
            }) ?? .temporarilyUnavailable
        let previous = account
        account = resolved
        switch resolved {
        case .available, .restricted:
            accountAttempts = 0
            if state == .offline || state.message != nil { state = .idle }
        case .temporarilyUnavailable:
            goOffline()
        case .couldNotDetermine, .damaged:
            accountAttempts += 1
            nextAccountCheck = ContinuousClock.now + .seconds(Backoff.delay(attempt: accountAttempts, jitter: .random(in: 0...1)))
            state = .error(resolved == .damaged ? "The cloud database is damaged." : "Could not tell whether the cloud is usable.")
        case .noAccount:
            break
        }
        if previous != resolved {
            logger.info("Cloud account", metadata: ["status": "\(resolved.rawValue)", "cloud": "\(cloud.displayName)"])
        }
        await publish()
    }

    // MARK: Cloud identity

    /// Associates every local player with its stable cloud record name (seed 000's deferred
    /// association): after start, never on the launch or request path; idempotent (an
    /// associated player costs no call); retried on every reconnect and periodic sync. One
    /// person's handle gets one name from the cloud, whichever device asks first.
    @discardableResult
    public func associateIdentities() async -> Int {
        guard let cloud else { return 0 }
        guard account == .available else {
            if !identityDeferralLogged {
                logger.info("Cloud identities wait until the cloud account is available", metadata: ["account": "\(account.rawValue)"])
                identityDeferralLogged = true
            }
            return 0
        }
        identityDeferralLogged = false
        var associated = 0
        let waiting: [(id: UUID, handle: String)]
        do {
            waiting = try await stores.domain.playersWithoutCloudIdentity()
        } catch {
            logger.warning("Could not read which players wait for a cloud identity; retrying on the next sync", metadata: ["error": "\(error)"])
            return 0
        }
        for (id, handle) in waiting {
            do {
                let name = try await cloud.claimIdentity(handle: handle, proposed: "player-\(id.lowercasedText)", zone: configuration.zone)
                try await stores.domain.associateCloudIdentity(id, recordName: name)
                associated += 1
            } catch {
                logger.notice(
                    "Cloud identity not associated yet; retrying on the next sync", metadata: ["player": "\(id.lowercasedText)", "error": "\(error)"])
                break
            }
        }
        if associated > 0 { logger.info("Associated players with their cloud identity", metadata: ["players": "\(associated)"]) }
        return associated
    }

    private func connectionLost() async {
        guard account != .noAccount, state != .offline else { return }
        logger.notice("Lost the connection to the cloud; scoring goes on here", metadata: ["cloud": "\(cloud?.displayName ?? "")"])
        goOffline()
        await publish()
    }

    private func goOffline() {
        account = .temporarilyUnavailable
        state = .offline
        accountAttempts += 1
        nextAccountCheck = ContinuousClock.now + .seconds(Backoff.delay(attempt: accountAttempts, jitter: .random(in: 0...1)))
    }

    // MARK: Read your own writes

    /// The cloud's change number once every local change made before this call is in the cloud,
    /// pushing now if need be; nil if that does not happen within `patience` (offline, a cloud
    /// without numbers): the write stands here and reaches the others later.
    public func pushedPosition(within patience: Duration) async -> Int64? {
        guard let cloud, account.canPush else { return nil }
        let deadline = ContinuousClock.now + patience
        do {
            let mark = try await stores.outbox.newestSequence()
            while try await !stores.outbox.isSynced(through: mark) {
                guard ContinuousClock.now < deadline else { return nil }
                // Nothing left to push and still not through: failed entries waiting, or offline.
                if await pushInTurn() == 0, try await !stores.outbox.isSynced(through: mark) { return nil }
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return nil }
            return try await Deadline.run(remaining, orThrow: { CancellationError() }) {
                try await cloud.position(zone: self.configuration.zone)
            }
        } catch {
            return nil
        }
    }

    /// Waits until this device has pulled the cloud through `position`, at most `patience`.
    /// False when it has not (offline, or the pull is slower): the caller answers anyway.
    public func waitUntilPulled(through position: Int64, within patience: Duration) async -> Bool {
        if pulledPosition >= position { return true }
        guard let cloud, account.canPull else { return false }
        // A number the cloud has not reached was never seen: answer at once (a made-up one
        // must not hold a request for the whole wait).
        // quiet: an unanswered position is "not seen yet", and the request is answered anyway.
        let cloudPosition = try? await Deadline.run(patience, orThrow: { CancellationError() }) {
            try await cloud.position(zone: self.configuration.zone)
        }
        guard let reached = cloudPosition ?? nil, position <= reached else { return false }
        trigger(.hint)
        let id = UUID()
        let timeout = Task {
            try? await Task.sleep(for: patience)
            self.resumeWaiter(id, with: false)
        }
        defer { timeout.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                positionWaiters[id] = (position, continuation)
            }
        } onCancel: {
            Task { await self.resumeWaiter(id, with: false) }
        }
    }

    private func resumeWaiter(_ id: UUID, with result: Bool) {
        positionWaiters.removeValue(forKey: id)?.continuation.resume(returning: result)
    }

    private func notePulled(through position: Int64) {
        guard position > pulledPosition else { return }
        pulledPosition = position
        for (id, waiter) in positionWaiters where waiter.position <= position {
            resumeWaiter(id, with: true)
        }
    }

    // MARK: Push

    /// Pushes after the push under way, if any, has finished: one push at a time, and a
    /// caller that needs its records in the cloud knows they were claimed by now.
    @discardableResult
    func pushInTurn() async -> Int {
        while let running = pushing {
            _ = await running.value
            // Whoever started it may not have run since it ended: a finished push is no push.
            if pushing == running { pushing = nil }
        }
        let task = Task { await self.pushPending() }
        pushing = task
        let pushed = await task.value
        if pushing == task { pushing = nil }
        return pushed
    }

    /// Pushes every due outbox entry, in batches. Each batch is marked in flight before the
    /// first suspension point, so concurrent calls never save one record twice.
    @discardableResult
    public func pushPending() async -> Int {
        guard let cloud, account.canPush else { return 0 }
        var pushed = 0
        while true {
            let batch: [OutboxEntry]
            let records: [CloudRecord]
            do {
                (batch, records) = try await stores.outbox.claimDueRecords(limit: configuration.pushBatch, now: Date())
            } catch {
                state = .error("The outbox could not be read: \(error)")
                await publish()
                return pushed
            }
            guard !batch.isEmpty else { break }
            configuration.crashPoints?.pass(.pushClaimed)
            state = .syncing
            // The new state at once; the counts are read again after the push, not ahead of it.
            publishState()
            let started = ContinuousClock.now
            do {
                let changed = try await cloud.save(records, zone: configuration.zone)
                configuration.crashPoints?.pass(.pushSaved)
                try await stores.outbox.markSynced(batch)
                configuration.crashPoints?.pass(.pushMarked)
                pushed += batch.count
                lastSyncAt = Date()
                state = .idle
                await log(
                    "push", records: batch.count, since: started, result: "ok",
                    message: changed < batch.count ? "\(batch.count - changed) already in the cloud" : nil)
            } catch let error as CloudError {
                switch error {
                case .unreachable:
                    await settle(batch) { try await $0.release(batch) }
                    goOffline()
                case .readOnly:
                    await settle(batch) { try await $0.release(batch) }
                    account = .restricted
                case .failed(let detail):
                    await settle(batch) { try await $0.markFailed(batch, error: detail, now: Date()) }
                    state = .error(detail)
                case .damaged:
                    await settle(batch) { try await $0.release(batch) }
                    account = .damaged
                    state = .error(error.description)
                }
                await log("push", records: batch.count, since: started, result: "failed", message: error.description)
                await publish()
                return pushed
            } catch {
                await settle(batch) { try await $0.markFailed(batch, error: "\(error)", now: Date()) }
                state = .error("\(error)")
                await log("push", records: batch.count, since: started, result: "failed", message: "\(error)")
                await publish()
                return pushed
            }
            await publish()
            if batch.count < configuration.pushBatch { break }
        }
        return pushed
    }

    /// Hands a batch that did not reach the cloud back to the outbox (released or failed). If
    /// that write fails, the batch stays in flight: said, and tried once more, since until it
    /// is settled nothing pushes those records again before a restart (`reconcile`).
    private func settle(_ batch: [OutboxEntry], _ write: (Outbox) async throws -> Void) async {
        for attempt in 1...2 {
            do {
                try await write(stores.outbox)
                return
            } catch {
                logger.error(
                    "Could not hand a batch that did not reach the cloud back to the outbox",
                    metadata: ["records": "\(batch.count)", "attempt": "\(attempt)", "error": "\(error)"])
            }
        }
        state = .error("\(batch.count) records could not be handed back to the outbox; they are pushed again after a restart.")
    }

    // MARK: Pull

    /// Pulls every change after the stored token, page by page, applying each page in one
    /// transaction and storing the token after it: a crash re-applies at most one page,
    /// idempotently.
    @discardableResult
    public func pullChanges() async -> Int {
        guard let cloud, account.canPull else { return 0 }
        let zone = configuration.zone
        let started = ContinuousClock.now
        var pulled = 0
        var applied = 0
        var quarantined = 0
        var bulkLoading = false
        do {
            let limit = configuration.pullPage
            var token = try await stores.operational.changeToken(zone: zone)
            if token == 0 {
                let total = try await cloud.changeCount(zone: zone, after: 0)
                if total > 0 { initialSync = InitialSync(pulled: 0, total: total) }
                if total > limit {
                    bulkLoading = true
                    try await stores.domain.tuneWriter(.bulkLoad)
                }
            }
            // Pipelined: while one page is written, the next is fetched and decoded.
            let unknown = configuration.unknownTypes
            var page = try await Self.fetch(cloud, into: stores.domain, zone: zone, after: token, limit: limit, unknown: unknown)
            while page.token > token {
                let (more, after) = (page.count == limit || page.hasMore, page.token)
                async let following = more ? Self.fetch(cloud, into: stores.domain, zone: zone, after: after, limit: limit, unknown: unknown) : nil
                if !page.changes.isEmpty {
                    configuration.crashPoints?.pass(.pullFetched)
                    state = .syncing
                    let result = try await stores.domain.applyRemote(page.changes)
                    applied += result.applied
                    quarantined += result.quarantined
                    configuration.crashPoints?.pass(.pullApplied)
                }
                try await stores.operational.setChangeToken(page.token, zone: zone)
                token = page.token
                pulled += page.count
                if var progress = initialSync {
                    progress.pulled = min(progress.total, progress.pulled + page.count)
                    initialSync = progress
                }
                await publish()
                guard let next = try await following else { break }
                page = next
            }
            // The last page read everything through the zone's newest number then.
            notePulled(through: max(token, page.hasMore ? token : page.newest ?? token))
            initialSync = nil
            lastSyncAt = Date()
            hasPulled = true
            stores.finishRefill()
            if state == .syncing || state.message != nil { state = .idle }
            if pulled > 0 {
                let here = pulled - applied - quarantined
                let message = [here > 0 ? "\(here) already here" : nil, quarantined > 0 ? "\(quarantined) kept unread (listed below)" : nil]
                    .compactMap { $0 }.joined(separator: "; ")
                await log("pull", records: pulled - quarantined, since: started, result: "ok", message: message.isEmpty ? nil : message)
            }
            if quarantined > 0 {
                Counter(label: "hyzer_sync_records_total", dimensions: [("operation", "pull"), ("result", "quarantined")]).increment(by: quarantined)
                logger.warning(
                    "Pulled records this version cannot read are kept in the quarantine; see /sync", metadata: ["records": "\(quarantined)"])
            }
        } catch let error as CloudError {
            switch error {
            case .unreachable: goOffline()
            case .damaged:
                account = .damaged
                state = .error(error.description)
            default: state = .error(error.description)
            }
            await log("pull", records: pulled, since: started, result: "failed", message: error.description)
        } catch {
            state = .error("\(error)")
            await log("pull", records: pulled, since: started, result: "failed", message: "\(error)")
        }
        if bulkLoading {
            do { try await stores.domain.tuneWriter(.everyday) } catch { logger.error("writer tuning not restored after the first sync: \(error)") }
        }
        await publish()
        return pulled
    }

    /// A page as it is applied: its records decoded (the raw ones are let go at once, which
    /// halves what a page holds), how many there were, and the token after them.
    struct DecodedPage: Sendable {
        var count: Int
        var changes: PreparedRemote
        var token: Int64
        var hasMore: Bool
        var newest: Int64?
    }

    private static func fetch(
        _ cloud: any CloudDatabase, into domain: DomainStore, zone: String, after token: Int64, limit: Int, unknown: Set<RecordType>
    ) async throws -> DecodedPage {
        var page = try await cloud.changes(zone: zone, after: token, limit: limit)
        let count = page.records.count + page.unreadable.count
        let (changes, unreadable) = read(page.records, unknown: unknown)
        page.records = []
        return DecodedPage(
            count: count, changes: domain.prepareRemote(changes, unreadable: page.unreadable + unreadable), token: page.token,
            hasMore: page.hasMore, newest: page.newest)
    }

    /// The records as domain values, and those that cannot be read with the reason.
    static func read(_ records: [CloudRecord], unknown: Set<RecordType>) -> ([RemoteChange], [UnreadableRecord]) {
        var changes: [RemoteChange] = []
        changes.reserveCapacity(records.count)
        var unreadable: [UnreadableRecord] = []
        for record in records {
            guard !unknown.contains(record.type) else {
                unreadable.append(UnreadableRecord(record, reason: UnreadableRecord.unknownType(record.type.rawValue)))
                continue
            }
            do {
                changes.append(try RemoteChange.read(record))
            } catch {
                unreadable.append(UnreadableRecord(record, reason: error.reason))
            }
        }
        return (changes, unreadable)
    }

    // MARK: Quarantine

    /// Reads the quarantine again and applies what this build can read now (a newer version
    /// that knows the type, a fixed reader); what it still cannot read stays, with today's
    /// reason. Runs at start: an upgrade is a restart.
    @discardableResult
    public func applyQuarantined() async -> Int {
        var (freed, still, key) = (0, 0, Int64(0))
        do {
            // In batches: the quarantine may hold many records, some of them large.
            while true {
                let kept = try await stores.domain.everyQuarantined(after: key, batch: 500)
                guard let last = kept.last else { break }
                key = last.key
                let (applied, unread) = try await applyAgain(kept)
                (freed, still) = (freed + applied, still + unread)
            }
        } catch {
            logger.error("Could not read the quarantine again", metadata: ["error": "\(error)"])
        }
        if freed > 0 {
            logger.notice("Applied quarantined records this version can read", metadata: ["records": "\(freed)"])
            await log("quarantine", records: freed, since: ContinuousClock.now, result: "ok", message: "applied records kept unread before")
        }
        if still > 0 { logger.warning("Pulled records still kept unread; see /sync", metadata: ["records": "\(still)"]) }
        await publish()
        return freed
    }

    /// Reads `kept` again: what reads now is applied and let go, the rest stays with today's
    /// reason. Returns how many of each.
    private func applyAgain(_ kept: [QuarantinedRecord]) async throws -> (applied: Int, unread: Int) {
        var readable: [CloudRecord] = []
        var released: [UnreadableRecord] = []
        var still: [UnreadableRecord] = []
        for entry in kept {
            let row = entry.record
            switch UnreadableRecord.read(type: row.type, id: row.id, hlc: row.hlc, payload: row.payload, unknown: configuration.unknownTypes) {
            case .success(let record):
                readable.append(record)
                released.append(row)
            case .failure(let unread): still.append(unread)
            }
        }
        let (changes, unreadable) = Self.read(readable, unknown: configuration.unknownTypes)
        let unreadKeys = Set(unreadable.map { "\($0.type)/\($0.id)" })
        let freed = released.filter { !unreadKeys.contains("\($0.type)/\($0.id)") }
        // Only a changed reason is written again; the rest of what stays is left as it is.
        let changed = (still + unreadable).filter { unread in
            kept.first { $0.record.type == unread.type && $0.record.id == unread.id }?.record.reason != unread.reason
        }
        if !changes.isEmpty || !changed.isEmpty || !freed.isEmpty {
            _ = try await stores.domain.applyRemote(stores.domain.prepareRemote(changes, unreadable: changed, releasing: freed))
        }
        return (freed.count, still.count + unreadable.count)
    }

    // MARK: Commands and status

    /// "Sync now": check the account, push, pull.
    public func syncNow() {
        trigger(.manual)
    }

    /// Makes failed records due at once and syncs.
    public func retryFailed(type: RecordType? = nil, id: String? = nil) async throws {
        try await stores.outbox.retryFailed(type: type, id: id)
        trigger(.manual)
    }

    public func status() async -> Status {
        await readCounts()
        return currentStatus()
    }

    /// The outbox's and the quarantine's counts, kept as last read when a read fails (it is
    /// logged: the page then shows the counts a moment old rather than none).
    private func readCounts() async {
        do {
            counts = try await stores.outbox.counts()
            quarantined = try await stores.domain.quarantineCount()
        } catch is CancellationError {
            return  // shutting down: nobody reads the counts any more
        } catch {
            logger.warning("Could not read the outbox's counts", metadata: ["error": "\(error)"])
        }
    }

    /// The status with the outbox counts as last read.
    private func currentStatus() -> Status {
        Status(
            cloud: cloud?.displayName ?? "none", account: account, state: state, lastSyncAt: lastSyncAt,
            counts: counts, initialSync: initialSync, hasPulled: hasPulled, quarantined: quarantined
        )
    }

    /// The current status at once, then every change.
    public func statusUpdates() -> AsyncStream<Status> {
        let (stream, continuation) = AsyncStream.makeStream(of: Status.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        watchers[id] = continuation
        continuation.yield(currentStatus())
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeWatcher(id) }
        }
        return stream
    }

    private func removeWatcher(_ id: UUID) {
        watchers[id] = nil
    }

    private func publish() async {
        await readCounts()
        publishState()
    }

    /// The status with the outbox counts as last read.
    private func publishState() {
        let current = currentStatus()
        guard current != lastPublished else { return }
        lastPublished = current
        for watcher in watchers.values { watcher.yield(current) }
    }

    private func log(_ operation: String, records: Int, since started: ContinuousClock.Instant, result: String, message: String?) async {
        let elapsed = ContinuousClock.now - started
        let milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        // Into whichever metrics backend the process bootstrapped (none: nothing is kept).
        Metrics.Timer(label: "hyzer_sync_duration_seconds", dimensions: [("operation", operation), ("result", result)]).recordNanoseconds(
            elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        Counter(label: "hyzer_sync_records_total", dimensions: [("operation", operation), ("result", result)]).increment(by: records)
        do {
            try await stores.operational.appendLog(
                SyncLogEntry(at: Date(), operation: operation, records: records, durationMs: milliseconds, result: result, message: message))
        } catch {
            logger.warning(
                "Could not write the sync log", metadata: ["operation": "\(operation)", "result": "\(result)", "error": "\(error)"])
        }
    }
}
