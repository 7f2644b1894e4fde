import Foundation
import Hummingbird
import HyzerStore
import HyzerSync
import Logging
import NIOCore
import ServiceLifecycle

/// Builds the whole app from a configuration: stores opened and migrated, templates loaded,
/// routes wired. Tests build exactly this.
public func buildApplication(
    _ config: AppConfiguration,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let logger = {
        var logger = Logger(label: "hyzer")
        logger.logLevel = config.logLevel
        return logger
    }()

    let stores = try Stores(directory: config.dataDirectory)
    if config.seedDemo, let roundID = try await stores.domain.seedDemoIfEmpty() {
        logger.info("Seeded a demo round", metadata: ["round": "\(roundID.lowercasedText)"])
    }
    let renderer = try await TemplateRenderer(directory: config.templatesDirectory)
    let hub = StreamHub()
    let live = LiveStandings(store: stores.domain, renderer: renderer, hub: hub, heartbeatInterval: config.heartbeatInterval, logger: logger)
    var services: [any Service] = [live]
    let cloud: (any CloudDatabase)?
    switch config.cloud {
    case .none:
        cloud = nil
    case .sqlite(let path):
        cloud = EmbeddedCloud(path: path)
    case .postgres(let address):
        let postgres = PostgresCloud(address: address, logger: logger)
        services.append(postgres)
        cloud = postgres
    }
    let engine = SyncEngine(stores: stores, cloud: cloud, configuration: config.sync, logger: logger)
    services.append(engine)
    services.append(SyncStatusFeed(engine: engine, stores: stores, renderer: renderer, hub: hub, logger: logger))
    let rules = AccessRules(stores: stores)
    let router = buildRouter(stores: stores, renderer: renderer, live: live, hub: hub, engine: engine, rules: rules, publicDirectory: config.publicDirectory)
    let streamAccess = StreamAccess { topic, _ in await rules.decide(topic.audience, identity: nil) }

    var app = Application(
        router: router,
        // Live streams are answered in the pipeline, ahead of the router: see `EventStreamHandler`.
        server: .http1(configuration: .init(additionalChannelHandlers: [EventStreamHandler(hub: hub, access: streamAccess)])),
        // A deep accept queue: a clubhouse full of phones and TVs reconnects at once after a restart.
        configuration: .init(address: .hostname(config.host, port: config.port), serverName: "Hyzer", backlog: 4096),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? config.port
            logger.info("Hyzer is serving http://\(config.host):\(port)", metadata: ["dataDirectory": "\(config.dataDirectory.path)"])
            await onServerRunning(port)
        },
        logger: logger
    )
    app.addServices(services)
    return app
}

func buildRouter(stores: Stores, renderer: TemplateRenderer, live: LiveStandings, hub: StreamHub, engine: SyncEngine, rules: AccessRules, publicDirectory: URL) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: ErrorMiddleware(renderer: renderer))
    router.add(middleware: FileMiddleware(publicDirectory.path, cacheControl: .init([(MediaType(type: .any), [.maxAge(300)])]), searchForIndexHtml: false))

    // Every route belongs to one audience's group; the API's groups answer in problem documents.
    let pages = RouteGroups(router, style: .page, rules: rules)
    let api = RouteGroups(router.group("api/v1").add(middleware: ProblemMiddleware()), style: .api, rules: rules)

    HomeController(stores: stores, renderer: renderer, live: live, hub: hub).addRoutes(to: pages)
    SetupPagesController(stores: stores, renderer: renderer).addRoutes(to: pages)
    RoundPagesController(stores: stores, renderer: renderer).addRoutes(to: pages)
    TVController(stores: stores, renderer: renderer).addRoutes(to: pages)
    SyncController(stores: stores, renderer: renderer, engine: engine).addRoutes(pages: pages, api: api)
    RoundsAPIController(stores: stores).addRoutes(to: api)
    // Anything else under the API is a 404 problem document, not a page.
    for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
        api.everyone.on("**", method: method) { _, _ -> Response in throw HTTPError(.notFound) }
    }
    return router
}
