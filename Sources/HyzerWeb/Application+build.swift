import Foundation
import Hummingbird
import HyzerStore
import Logging
import NIOCore

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
        logger.info("Seeded a demo round", metadata: ["round": "\(roundID.uuidString.lowercased())"])
    }
    let renderer = try await TemplateRenderer(directory: config.templatesDirectory)
    let live = LiveStandings(store: stores.domain, renderer: renderer, heartbeatInterval: config.heartbeatInterval, logger: logger)
    let router = buildRouter(stores: stores, renderer: renderer, live: live, publicDirectory: config.publicDirectory)

    var app = Application(
        router: router,
        configuration: .init(address: .hostname(config.host, port: config.port), serverName: "Hyzer"),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? config.port
            logger.info("Hyzer is serving http://\(config.host):\(port)", metadata: ["dataDirectory": "\(config.dataDirectory.path)"])
            await onServerRunning(port)
        },
        logger: logger
    )
    app.addServices(live)
    return app
}

func buildRouter(stores: Stores, renderer: TemplateRenderer, live: LiveStandings, publicDirectory: URL) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: ErrorMiddleware(renderer: renderer))
    router.add(middleware: FileMiddleware(publicDirectory.path, cacheControl: .init([(MediaType(type: .any), [.maxAge(300)])]), searchForIndexHtml: false))

    HomeController(stores: stores, renderer: renderer, live: live).addRoutes(to: router)
    SetupPagesController(stores: stores, renderer: renderer).addRoutes(to: router)
    RoundPagesController(stores: stores, renderer: renderer).addRoutes(to: router)
    LiveController(stores: stores, renderer: renderer, live: live).addRoutes(to: router)
    RoundsAPIController(stores: stores).addRoutes(to: router.group("api/v1"))
    return router
}
