import Foundation
import HTTPTypes
import Hummingbird
import HyzerCore
import HyzerStore
import ServiceLifecycle

/// The live streams (`/rounds/{id}/events`, `/tv/events`) and the TV screen.
struct LiveController {
    let stores: Stores
    let renderer: TemplateRenderer
    let live: LiveStandings

    /// How long a browser waits before reconnecting after the stream drops.
    static let retryMilliseconds = 2000

    /// An event stream is never cached, and proxies must not buffer it.
    static let eventStreamHeaders: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache", HTTPField.Name("X-Accel-Buffering")!: "no"]

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/rounds/:id/events", use: roundEvents)
        router.get("/tv", use: tv)
        router.get("/tv/events", use: tvEvents)
    }

    /// `event: standings` (the leaderboard fragment) on connect and after every change;
    /// with `?scorecard=1` also `event: scorecard` (the round page's grid). Every client
    /// gets the current state at once, so a reconnect (`Last-Event-ID`) misses nothing;
    /// the id itself is not needed to catch up and an unreadable one is ignored.
    @Sendable func roundEvents(_ request: Request, context: AppRequestContext) async throws -> Response {
        let roundID = try context.uuid("id", "Round")
        _ = try await stores.domain.snapshot(of: roundID)
        let wantsScorecard = request.uri.queryParameters.get("scorecard") == "1"
        let live = live
        return Self.stream(request) {
            try await live.subscribe(round: roundID, scorecard: wantsScorecard)
        } unsubscribe: { mailbox in
            await live.unsubscribe(mailbox, round: roundID)
        }
    }

    /// `event: tv`: the boards of every active round, after every change to any of them.
    @Sendable func tvEvents(_ request: Request, context: AppRequestContext) async throws -> Response {
        let live = live
        return Self.stream(request) {
            try await live.subscribeTV()
        } unsubscribe: { mailbox in
            await live.unsubscribeTV(mailbox)
        }
    }

    /// The wall display. `?round=ID` pins one round; `?page=N` sets the seconds each page
    /// of a long board (and each round) stays up.
    @Sendable func tv(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let snapshots = try await stores.domain.activeRoundSnapshots()
        let pinned = request.uri.queryParameters.get("round").flatMap(UUID.init(text:)).map(Display.id) ?? ""
        let seconds = request.uri.queryParameters.get("page").flatMap(Int.init).map { min(max($0, 3), 600) } ?? 10
        return renderer.page(TVPage(boards: TVBoards(snapshots: snapshots), pinnedRound: pinned, pageSeconds: seconds), "tv")
    }

    /// An SSE response. The subscription is made inside the body, so a response that is
    /// never sent leaks nothing. The loop ends when the mailbox closes: the client went away
    /// (inbound close), the server is shutting down, or the broadcaster stopped. Plain
    /// handlers rather than `cancelOnGracefulShutdown()` and a cancelling task group: those
    /// add tasks to every connection, which thousands of open TVs and phones pay for in
    /// memory and latency.
    static func stream(
        _ request: Request,
        subscribe: @escaping @Sendable () async throws -> Mailbox,
        unsubscribe: @escaping @Sendable (Mailbox) async -> Void
    ) -> Response {
        Response(
            status: .ok,
            headers: eventStreamHeaders,
            body: ResponseBody { writer in
                let mailbox = try await subscribe()
                do {
                    try await writer.write(ByteBuffer(string: ServerSentEvent.retry(milliseconds: retryMilliseconds)))
                    try await withGracefulShutdownHandler {
                        try await request.body.consumeWithInboundCloseHandler { _ in
                            for await frame in mailbox {
                                try await writer.write(frame)
                            }
                        } onInboundClosed: {
                            mailbox.close()
                        }
                    } onGracefulShutdown: {
                        mailbox.close()
                    }
                } catch {
                    // The client left mid-write: nothing to report to anyone.
                }
                await unsubscribe(mailbox)
                try? await writer.finish(nil)
            }
        )
    }
}
