import Foundation
import HyzerCore
import HyzerStore
import Logging
import NIOCore
import ServiceLifecycle

/// The source of the standings streams (`.round`, `.tv`). It learns of every change from the
/// store's round versions — whatever wrote them: a score posted here or a record applied by
/// sync — renders each change once, and publishes the same bytes to every subscriber.
public actor LiveStandings: Service {
    private let store: DomainStore
    private let renderer: TemplateRenderer
    private let hub: StreamHub
    private let requests: AsyncStream<StreamTopic>
    private let heartbeatInterval: Duration
    private let logger: Logger
    private let heartbeat = StreamBytes(ByteBuffer(string: ServerSentEvent.heartbeat))
    /// The club's public address, for the TV's check-in pages.
    private let publicAddress: PublicAddressSource

    private var versions: [UUID: Int] = [:]
    private var tvSequence = 0
    private var bracketSequence = 0
    private var framesRendered = 0

    init(
        store: DomainStore, renderer: TemplateRenderer, hub: StreamHub, heartbeatInterval: Duration, logger: Logger, publicURL: String? = nil
    ) {
        publicAddress = PublicAddressSource(configured: publicURL, store: store)
        self.store = store
        self.renderer = renderer
        self.hub = hub
        self.requests = hub.frameRequests(for: .standings)
        self.heartbeatInterval = heartbeatInterval
        self.logger = logger
    }

    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask {
                do {
                    // With no stream open, a score costs nothing here (no read, no render).
                    for try await versions in self.store.roundVersions(while: { [hub = self.hub] in hub.followsAny }).cancelOnGracefulShutdown() {
                        await self.apply(versions)
                    }
                } catch {
                    self.logger.error("Stopped observing standings", metadata: ["error": "\(error)"])
                }
            }
            group.addTask {
                // Check-ins, nights and seasons change the TV's league pages without any round.
                do {
                    for try await _ in self.store.leagueChanges().dropFirst().cancelOnGracefulShutdown() where self.hub.isFollowed(.tv) {
                        await self.publishTV()
                    }
                } catch {
                    self.logger.error("Stopped observing the league", metadata: ["error": "\(error)"])
                }
            }
            group.addTask {
                for await topic in self.requests.cancelOnGracefulShutdown() {
                    await self.provide(topic)
                }
            }
            group.addTask {
                while true {
                    do { try await Task.sleep(for: self.heartbeatInterval) } catch { return }
                    self.hub.heartbeat(self.heartbeat)
                }
            }
            // Returns when the service group shuts down (or is cancelled); the loops end with it.
            try? await gracefulShutdown()
            group.cancelAll()
        }
        hub.closeAll()
    }

    var framesRenderedCount: Int { framesRendered }

    // MARK: Publishing

    private func apply(_ latest: [UUID: Int]) async {
        let changed = latest.filter { versions[$0.key] != $0.value }.map(\.key)
        versions = latest
        guard !changed.isEmpty else { return }
        for roundID in changed {
            await publish(roundID)
        }
        // The TV shows active rounds: any change may start, end or change one of them.
        if hub.isFollowed(.tv) { await publishTV() }
        // A bracket follows its match rounds: any of them may be among the changed.
        for eventID in hub.followedBrackets { await publishBracket(eventID) }
    }

    /// A first subscriber waits: render its topic now, unless a change has meanwhile.
    private func provide(_ topic: StreamTopic) async {
        guard hub.needsFrame(topic) else { return }
        switch topic {
        case .round(let roundID, _): await publish(roundID)
        case .tv: await publishTV()
        case .bracket(let eventID): await publishBracket(eventID)
        case .sync: break
        }
    }

    /// Renders a round's frames — the board, and board + scorecard while a round page is
    /// open — once each, for whichever of them someone follows.
    private func publish(_ roundID: UUID) async {
        let board = StreamTopic.round(roundID, scorecard: false)
        let full = StreamTopic.round(roundID, scorecard: true)
        let (wantsBoard, wantsFull) = (hub.isFollowed(board), hub.isFollowed(full))
        guard wantsBoard || wantsFull else { return }
        let roundBoard: RoundBoard
        do {
            roundBoard = try await store.board(of: roundID)
        } catch StoreError.notFound {
            hub.reject(board)
            hub.reject(full)
            return
        } catch {
            logger.error("Could not read standings", metadata: ["round": "\(roundID)", "error": "\(error)"])
            return
        }
        let id = String(roundBoard.version)
        var bytes = ByteBuffer(
            string: ServerSentEvent.encode(
                event: "standings", id: id, data: ServerSentEvent.compactHTML(renderer.render(roundBoard.leaderboard, "leaderboard"))))
        framesRendered += 1
        if wantsBoard { hub.publish(StreamFrame(version: roundBoard.version, bytes: bytes), to: board) }
        if wantsFull {
            bytes.writeString(
                ServerSentEvent.encode(
                    event: "scorecard", id: id, data: ServerSentEvent.compactHTML(renderer.render(roundBoard.scorecard, "scorecard"))))
            hub.publish(StreamFrame(version: roundBoard.version, bytes: bytes), to: full)
        }
    }

    private func publishBracket(_ eventID: UUID) async {
        bracketSequence += 1
        let sequence = bracketSequence
        do {
            let html = ServerSentEvent.compactHTML(renderer.render(BracketBoard(try await store.bracketSnapshot(eventID: eventID)), "bracket-board"))
            framesRendered += 1
            hub.publish(
                StreamFrame(version: sequence, bytes: ByteBuffer(string: ServerSentEvent.encode(event: "bracket", id: String(sequence), data: html))),
                to: .bracket(eventID))
        } catch StoreError.notFound {
            hub.reject(.bracket(eventID))
        } catch {
            logger.error("Could not render a bracket", metadata: ["event": "\(eventID)", "error": "\(error)"])
        }
    }

    private func publishTV() async {
        // Numbered before the read: of two renders racing, the later read wins.
        tvSequence += 1
        let sequence = tvSequence
        do {
            let html = ServerSentEvent.compactHTML(
                renderer.render(try await TVScreen.read(store, publicURL: try await publicAddress.current()), "tv-boards"))
            framesRendered += 1
            hub.publish(
                StreamFrame(version: sequence, bytes: ByteBuffer(string: ServerSentEvent.encode(event: "tv", id: String(sequence), data: html))),
                to: .tv)
        } catch {
            logger.error("Could not render the TV boards", metadata: ["error": "\(error)"])
        }
    }
}
