import Foundation
import HyzerCore
import HyzerStore
import Logging
import NIOCore
import ServiceLifecycle

/// Streams standings to every open page and TV. It learns of every change from the store's
/// round versions — whatever wrote them: a score posted here or a record applied by sync —
/// renders each change once, and hands the same bytes to every subscriber.
public actor LiveStandings: Service {
    private struct Subscriber {
        let mailbox: Mailbox
        let wantsScorecard: Bool
    }

    private struct RoundChannel {
        var version = -1
        var board = ByteBuffer()
        var boardAndScorecard = ByteBuffer()
        var hasScorecard = false
        var subscribers: [ObjectIdentifier: Subscriber] = [:]

        func frame(for subscriber: Subscriber) -> ByteBuffer {
            subscriber.wantsScorecard ? boardAndScorecard : board
        }
    }

    private let store: DomainStore
    private let renderer: TemplateRenderer
    private let heartbeatInterval: Duration
    private let logger: Logger
    private let heartbeat = ByteBuffer(string: ServerSentEvent.heartbeat)

    private var versions: [UUID: Int] = [:]
    private var rounds: [UUID: RoundChannel] = [:]
    private var tvSubscribers: [ObjectIdentifier: Mailbox] = [:]
    private var tvFrame: ByteBuffer?
    private var tvSequence = 0
    private var tvRounds: Set<UUID> = []
    private var stopped = false
    private var framesRendered = 0
    private var skippedByClosed = 0

    init(store: DomainStore, renderer: TemplateRenderer, heartbeatInterval: Duration, logger: Logger) {
        self.store = store
        self.renderer = renderer
        self.heartbeatInterval = heartbeatInterval
        self.logger = logger
    }

    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask {
                do {
                    for try await versions in self.store.roundVersions().cancelOnGracefulShutdown() {
                        await self.apply(versions)
                    }
                } catch {
                    self.logger.error("Stopped observing standings", metadata: ["error": "\(error)"])
                }
            }
            group.addTask {
                while true {
                    do { try await Task.sleep(for: self.heartbeatInterval) } catch { return }
                    await self.beat()
                }
            }
            // Returns when the service group shuts down (or is cancelled); the loops end with it.
            try? await gracefulShutdown()
            group.cancelAll()
        }
        closeAll()
    }

    // MARK: Subscribing

    /// A mailbox that holds the round's current state at once, then every change.
    func subscribe(round roundID: UUID, scorecard: Bool) async throws -> Mailbox {
        let mailbox = Mailbox()
        if stopped { mailbox.close(); return mailbox }
        let subscriber = Subscriber(mailbox: mailbox, wantsScorecard: scorecard)
        rounds[roundID, default: RoundChannel()].subscribers[ObjectIdentifier(mailbox)] = subscriber
        let channel = rounds[roundID]
        if channel?.version ?? -1 < 0 || channel?.version != versions[roundID] || (scorecard && channel?.hasScorecard != true) {
            try await render(roundID, force: true)
        }
        if let channel = rounds[roundID], channel.version >= 0 {
            mailbox.deliver(channel.frame(for: subscriber))
        }
        return mailbox
    }

    func unsubscribe(_ mailbox: Mailbox, round roundID: UUID) {
        mailbox.close()
        skippedByClosed += mailbox.replacedCount
        rounds[roundID]?.subscribers[ObjectIdentifier(mailbox)] = nil
    }

    func subscribeTV() async throws -> Mailbox {
        let mailbox = Mailbox()
        if stopped { mailbox.close(); return mailbox }
        tvSubscribers[ObjectIdentifier(mailbox)] = mailbox
        if tvFrame == nil { try await renderTV() }
        if let tvFrame { mailbox.deliver(tvFrame) }
        return mailbox
    }

    func unsubscribeTV(_ mailbox: Mailbox) {
        mailbox.close()
        skippedByClosed += mailbox.replacedCount
        tvSubscribers[ObjectIdentifier(mailbox)] = nil
    }

    struct Statistics: Sendable {
        var subscribers: Int
        var framesRendered: Int
        /// Frames a slow client never saw because a newer state replaced them.
        var framesSkipped: Int
    }

    var statistics: Statistics {
        let open = rounds.values.flatMap { $0.subscribers.values.map(\.mailbox) } + Array(tvSubscribers.values)
        return Statistics(
            subscribers: open.count, framesRendered: framesRendered,
            framesSkipped: skippedByClosed + open.reduce(0) { $0 + $1.replacedCount }
        )
    }

    // MARK: Publishing

    private func apply(_ latest: [UUID: Int]) async {
        let changed = latest.filter { versions[$0.key] != $0.value }.map(\.key)
        versions = latest
        guard !changed.isEmpty else { return }
        for roundID in changed where !(rounds[roundID]?.subscribers.isEmpty ?? true) {
            do {
                try await render(roundID)
            } catch {
                logger.error("Could not render standings", metadata: ["round": "\(roundID)", "error": "\(error)"])
            }
        }
        // The TV shows active rounds: any change may start, end or change one of them.
        if !tvSubscribers.isEmpty {
            do { try await renderTV() } catch {
                logger.error("Could not render the TV boards", metadata: ["error": "\(error)"])
            }
        } else {
            tvFrame = nil
        }
    }

    /// Renders a round's frames once and delivers them to its subscribers. A render that
    /// finishes after a newer one (actor reentrancy) is discarded.
    private func render(_ roundID: UUID, force: Bool = false) async throws {
        let snapshot = try await store.snapshot(of: roundID)
        guard snapshot.version > rounds[roundID]?.version ?? -1 || (force && snapshot.version == rounds[roundID]?.version) else { return }
        let id = String(snapshot.version)
        let page = RoundPage(snapshot: snapshot)
        let board = ByteBuffer(string: ServerSentEvent.encode(event: "standings", id: id, data: ServerSentEvent.compactHTML(renderer.render(page.leaderboard, "leaderboard"))))
        var both = board
        // The scorecard only while a round page is open: leaderboards and TVs skip it.
        let withScorecard = rounds[roundID]?.subscribers.values.contains(where: \.wantsScorecard) == true
        if withScorecard {
            both.writeString(ServerSentEvent.encode(event: "scorecard", id: id, data: ServerSentEvent.compactHTML(renderer.render(page.scorecard, "scorecard"))))
        }
        framesRendered += 1
        var channel = rounds[roundID] ?? RoundChannel()
        channel.version = snapshot.version
        channel.board = board
        channel.boardAndScorecard = both
        channel.hasScorecard = withScorecard
        rounds[roundID] = channel
        for subscriber in channel.subscribers.values {
            subscriber.mailbox.deliver(channel.frame(for: subscriber))
        }
    }

    private func renderTV() async throws {
        let snapshots = try await store.activeRoundSnapshots()
        tvSequence += 1
        framesRendered += 1
        let html = ServerSentEvent.compactHTML(renderer.render(TVBoards(snapshots: snapshots), "tv-boards"))
        let frame = ByteBuffer(string: ServerSentEvent.encode(event: "tv", id: String(tvSequence), data: html))
        tvFrame = frame
        for mailbox in tvSubscribers.values { mailbox.deliver(frame) }
    }

    private func beat() {
        for channel in rounds.values {
            for subscriber in channel.subscribers.values { subscriber.mailbox.heartbeat(heartbeat) }
        }
        for mailbox in tvSubscribers.values { mailbox.heartbeat(heartbeat) }
    }

    private func closeAll() {
        stopped = true
        for channel in rounds.values {
            for subscriber in channel.subscribers.values { subscriber.mailbox.close() }
        }
        for mailbox in tvSubscribers.values { mailbox.close() }
        rounds = [:]
        tvSubscribers = [:]
    }
}
