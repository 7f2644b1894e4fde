import HyzerCore
import HyzerStore
import HyzerSync
import Logging
import NIOCore
import ServiceLifecycle

/// The source of `/sync/events`: renders the sync-status fragment once per change of the
/// engine's status, for everyone who has the sync page open.
actor SyncStatusFeed: Service {
    private let engine: SyncEngine
    private let stores: Stores
    private let renderer: TemplateRenderer
    private let hub: StreamHub
    private let requests: AsyncStream<StreamTopic>
    private let logger: Logger
    private var sequence = 0

    init(engine: SyncEngine, stores: Stores, renderer: TemplateRenderer, hub: StreamHub, logger: Logger) {
        self.engine = engine
        self.stores = stores
        self.renderer = renderer
        self.hub = hub
        self.requests = hub.frameRequests(for: .sync)
        self.logger = logger
    }

    func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await status in await self.engine.statusUpdates().cancelOnGracefulShutdown() {
                    await self.publish(status, onlyIfFollowed: true)
                }
            }
            group.addTask {
                for await _ in self.requests.cancelOnGracefulShutdown() where self.hub.needsFrame(.sync) {
                    await self.publish(await self.engine.status(), onlyIfFollowed: false)
                }
            }
        }
    }

    private func publish(_ status: SyncEngine.Status, onlyIfFollowed: Bool) async {
        if onlyIfFollowed, !hub.isFollowed(.sync) { return }
        do {
            let view = try await SyncStatusView(status: status, stores: stores)
            // Numbered after the read, so that frames leave in the order of their numbers.
            sequence += 1
            let html = ServerSentEvent.compactHTML(renderer.render(view, "sync-status"))
            hub.publish(
                StreamFrame(version: sequence, bytes: ByteBuffer(string: ServerSentEvent.encode(event: "sync", id: String(sequence), data: html))),
                to: .sync)
        } catch {
            logger.error("Could not render the sync status", metadata: ["error": "\(error)"])
        }
    }
}
