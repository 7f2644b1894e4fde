import Foundation
import Hummingbird
import HummingbirdAuth
import HummingbirdCore
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

    let (web, services, setupToken) = try await assemble(config, logger: logger)
    let hub = web.hub
    let router = try buildRouter(web)
    let streamAccess = StreamAccess { [web] audience, head in
        try await web.rules.decide(audience, identity: try await web.identities.identity(for: head))
    }

    let hosts = config.hosts
    let headTimeout = TimeAmount(config.headerTimeout)
    let shares = StreamShares(connectionLimit: config.connectionLimit, perClient: config.maxStreamsPerClient)
    let proxies = web.proxies
    var app = Application(
        router: RouterFront(
            router: router, table: RouteTable(router.routes.map { ($0.method, $0.path.description) } + StreamTopic.paths.map { (.get, $0) }),
            pages: web.renderer.cache, stores: web.stores),
        // Every request passes the front door; live streams and kept pages are then answered in
        // the pipeline, ahead of the router: see `FrontDoorHandler`, `EventStreamHandler` and
        // `KeptPageHandler`.
        server: HTTPServerBuilder { [tasks = web.connectionTasks, pages = web.renderer.cache, stores = web.stores] responder in
            LiveHTTP1Channel(
                http1: HTTP1Channel(
                    responder: responder,
                    configuration: .init(
                        additionalChannelHandlers: [
                            FrontDoorHandler(hosts: hosts, headTimeout: headTimeout, shares: shares, proxies: proxies),
                            EventStreamHandler(hub: hub, access: streamAccess, shares: shares, proxies: proxies),
                        ],
                        idleTimeout: TimeAmount(config.idleTimeout)
                    )), tasks: tasks, pages: pages, stores: stores)
        },
        // A deep accept queue: a clubhouse full of phones and TVs reconnects at once after a restart.
        // Past the connection limit, new connections wait there instead of using up descriptors.
        configuration: .init(
            address: .hostname(config.host, port: config.port), serverName: KeptPageLane.serverName, backlog: 4096,
            availableConnectionsDelegate: MaximumAvailableConnections(config.connectionLimit, logger: logger)
        ),
        onServerRunning: { channel in
            // One connection accepted per read of the listening socket: the connection limit
            // stops reading once it is reached, and NIO's default of four a read would take up
            // to three more past it.
            do {
                try await channel.setOption(ChannelOptions.maxMessagesPerRead, value: 1)
            } catch {
                logger.warning(
                    "Could not accept one connection at a time; --max-connections may be passed by up to 3", metadata: ["error": "\(error)"])
            }
            let port = channel.localAddress?.port ?? config.port
            logger.info("Hyzer is serving http://\(config.host):\(port)", metadata: ["dataDirectory": "\(config.dataDirectory.path)"])
            if let setupToken {
                logger.notice(
                    "No admin yet. Create the first one at \(config.publicURL ?? "http://\(config.host):\(port)")/setup?token=\(setupToken) (single use, valid 24 hours)"
                )
            }
            await onServerRunning(port)
        },
        logger: logger
    )
    app.addServices(services)
    app.addServices(
        StreamAccessWatch(
            hub: hub, access: streamAccess,
            stamp: { [stores = web.stores, credentials = web.credentials] in stores.accessStamp &+ credentials.changeStamp }))
    return app
}

/// Opens the stores, loads the templates and makes the services and everything the routes
/// are built from. Tests use it to read the router's table of routes.
func assemble(_ config: AppConfiguration, logger: Logger) async throws -> (WebParts, [any Service], setupToken: String?) {
    let stores = try await Stores(directory: config.dataDirectory, cloudConfigured: config.cloud != .none, crashPoints: config.sync.crashPoints)
    if config.seedDemo, let roundID = try await stores.domain.seedDemoIfEmpty() {
        logger.info("Seeded a demo round", metadata: ["round": "\(roundID.lowercasedText)"])
    }
    let renderer = try await TemplateRenderer(directory: config.templatesDirectory, signedInLane: config.clusterSecret == nil)
    let hub = StreamHub()
    let live = LiveStandings(
        store: stores.domain, renderer: renderer, hub: hub, heartbeatInterval: config.heartbeatInterval, logger: logger, publicURL: config.publicURL)
    var services: [any Service] = [live]
    let cloud: (any CloudDatabase)?
    switch config.cloud {
    case .none:
        cloud = nil
    case .sqlite(let path):
        cloud = EmbeddedCloud(path: path)
    case .postgres(let address):
        let postgres = PostgresCloud(address: address, logger: logger, connectTimeout: config.cloudConnectTimeout)
        services.append(postgres)
        cloud = postgres
    }
    if let problem = AppConfiguration.clusterProblem(secret: config.clusterSecret, cloud: config.cloud) {
        throw ConfigurationError(description: problem)
    }
    let credentials: any CredentialStore
    var formTokens = config.formTokenKey
    let keys = try config.clusterSecret.map(ClusterKeys.init(secret:))
    if let keys, let postgres = cloud as? PostgresCloud {
        let cluster = ClusterCredentials(cloud: postgres, keys: keys, logger: logger)
        services.append(cluster)
        credentials = cluster
        formTokens = formTokens ?? keys.formKey
        logger.info("Cluster mode: sessions, form tokens and API tokens are shared through the cloud", metadata: ["cluster": "\(cluster.cluster)"])
    } else {
        credentials = stores.operational
    }
    try ClusterMarker.keep(keys?.clusterID, in: config.dataDirectory)
    // Without a cluster's key too: a sealed hash pulled here is then kept out, not taken in.
    let sealing = cloud.map { SealingCloud($0, seal: PasswordSeal(keys: keys), stores: stores, zone: config.sync.zone, logger: logger) }
    let engine = SyncEngine(stores: stores, cloud: sealing, configuration: config.sync, logger: logger)
    services.append(engine)
    if let damaged = stores.damagedOperationalFile {
        logger.warning(
            "sync.sqlite was damaged and has been rebuilt; every record is queued for the cloud again, and sessions and API tokens of this machine must be issued again",
            metadata: ["damagedFile": "\(damaged.path)"])
    }
    if let recovery = stores.recovery {
        // Until the engine's first pull has refilled it, requests are answered "recovering".
        logger.warning("Recovered a damaged domain.sqlite", metadata: ["what": "\(recovery)"])
    }
    var scheduler: BackupScheduler?
    let copies = config.backupCopyFolder.map { BackupCopyTarget(folder: $0, logger: logger) }
    if let interval = config.backupInterval {
        let backups = BackupScheduler(stores: stores, interval: interval, retention: config.backupRetention, logger: logger, copies: copies)
        services.append(backups)
        scheduler = backups
    }
    services.append(SyncStatusFeed(engine: engine, stores: stores, renderer: renderer, hub: hub, logger: logger))
    let accounts = Accounts(stores: stores, credentials: credentials, cost: config.bcryptCost)
    var setupToken = try await accounts.setupTokenIfNeeded()
    // With a cloud, the club's first admin may exist already and arrive with the first pull:
    // the link is logged once a pull has shown there is none (`SetupLinkNotice`).
    if let token = setupToken, cloud != nil {
        let base = config.publicURL ?? "http://\(config.host):\(config.port)"
        services.append(SetupLinkNotice(engine: engine, stores: stores, link: "\(base)/setup?token=\(token)", logger: logger))
        setupToken = nil
    }
    let sessions = SessionStorage<UserSession>(
        CredentialSessionDriver(store: credentials),
        configuration: .init(sessionCookieParameters: .init(name: UserSession.cookieName, path: "/", secure: config.secureCookies, sameSite: .lax))
    )
    let proxies = try TrustedProxies(parsing: config.trustedProxies)
    return (
        WebParts(
            proxies: proxies, formTokens: try formTokens ?? FormTokenKey.kept(in: config.dataDirectory), stores: stores, credentials: credentials,
            renderer: renderer, live: live, hub: hub, connectionTasks: ConnectionTasks(),
            engine: engine, accounts: accounts,
            rules: AccessRules(stores: stores), identities: IdentityResolver(stores: stores, credentials: credentials, sessions: sessions),
            sessions: sessions, config: config,
            backups: BackupDesk(
                stores: stores, engine: engine, scheduler: scheduler, interval: config.backupInterval, retention: config.backupRetention,
                hasCloud: cloud != nil, copies: copies, cloudAddress: config.cloud)
        ), services, setupToken
    )
}

/// What the routes are built from.
struct WebParts: Sendable {
    let proxies: TrustedProxies
    let formTokens: FormTokenKey
    let stores: Stores
    let credentials: any CredentialStore
    let renderer: TemplateRenderer
    let live: LiveStandings
    let hub: StreamHub
    let connectionTasks: ConnectionTasks
    let engine: SyncEngine
    let accounts: Accounts
    let rules: AccessRules
    let identities: IdentityResolver
    let sessions: SessionStorage<UserSession>
    let config: AppConfiguration
    let backups: BackupDesk
}

func buildRouter(_ web: WebParts) throws -> Router<AppRequestContext> {
    let (stores, renderer, config) = (web.stores, web.renderer, web.config)
    // HEAD for every GET route, by the router (see `RequestMetricsMiddleware`).
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    // Outermost: every request is counted by route and status, errors and refusals included.
    _ = ServerMetrics.process
    router.add(middleware: RequestMetricsMiddleware())
    if !web.proxies.isEmpty { router.add(middleware: ClientAddressMiddleware(proxies: web.proxies)) }
    router.add(middleware: SecurityHeadersMiddleware(tvFrameAncestors: config.tvFrameAncestors))
    router.add(middleware: RestoringMiddleware(stores: stores, renderer: renderer))
    router.add(middleware: CSRFTokenMiddleware(key: web.formTokens, secureCookies: config.secureCookies))
    router.add(middleware: EndedSessionCookieMiddleware())
    router.add(middleware: SessionMiddleware(sessionStorage: web.sessions, defaultSessionExpiration: config.sessionLifetime))
    router.add(middleware: IdentityMiddleware(resolver: web.identities))
    if config.clusterSecret != nil {
        router.add(middleware: ReadYourWritesMiddleware(engine: web.engine, patience: config.readYourWritesWait, secureCookies: config.secureCookies))
    }
    router.add(middleware: ClubNameMiddleware(stores: stores))
    // Error pages show who is signed in, so they render inside the identity middleware.
    router.add(middleware: ErrorMiddleware(renderer: renderer))
    // Serves a file when no route matches (it acts on the router's 404), so it sits inside
    // the error middleware, which would otherwise turn that 404 into a page first.
    router.add(middleware: IgnoreRangesMiddleware())
    router.add(
        middleware: FileMiddleware(
            config.publicDirectory.path, cacheControl: .init([(MediaType(type: .any), [.maxAge(300)])]), searchForIndexHtml: false))

    // Every route belongs to one audience's group; the API's groups answer in problem documents.
    let pages = RouteGroups(router, style: .page, rules: web.rules)
    let api = RouteGroups(
        router.group("api/v1").add(middleware: ProblemMiddleware()).add(middleware: APIGuardMiddleware()), style: .api, rules: web.rules)

    HomeController(
        stores: stores, renderer: renderer, live: web.live, hub: web.hub, connectionTasks: web.connectionTasks, engine: web.engine,
        metricsRegistry: ServerMetrics(), metricsToken: config.metricsToken
    ).addRoutes(to: pages)
    AccountController(stores: stores, renderer: renderer, accounts: web.accounts, throttle: SignInThrottle(), sessionLifetime: config.sessionLifetime)
        .addRoutes(to: pages)
    let publicAddress = PublicAddressSource(configured: config.publicURL, store: stores.domain)
    AdminController(stores: stores, credentials: web.credentials, renderer: renderer, backups: web.backups, publicAddress: publicAddress)
        .addRoutes(to: pages)
    BackupsController(stores: stores, renderer: renderer, desk: web.backups, maxUpload: config.maxBackupUpload).addRoutes(to: pages)
    InvitesController(stores: stores, renderer: renderer, publicAddress: publicAddress).addRoutes(to: pages)
    SetupPagesController(stores: stores, renderer: renderer).addRoutes(to: pages)
    RoundPagesController(stores: stores, renderer: renderer).addRoutes(to: pages)
    CardPagesController(stores: stores, renderer: renderer).addRoutes(to: pages)
    StatisticsPagesController(stores: stores, renderer: renderer).addRoutes(to: pages)
    EventPagesController(stores: stores, renderer: renderer, publicAddress: publicAddress).addRoutes(to: pages)
    CheckInLinkController(stores: stores, publicAddress: publicAddress).addRoutes(to: pages)
    SeasonPagesController(stores: stores, renderer: renderer).addRoutes(to: pages)
    TagPagesController(stores: stores, renderer: renderer).addRoutes(to: pages)
    BracketPagesController(stores: stores, renderer: renderer).addRoutes(to: pages)
    MoneyPagesController(stores: stores, renderer: renderer).addRoutes(to: pages)
    DirectorPagesController(stores: stores, renderer: renderer).addRoutes(to: pages)
    TVController(stores: stores, renderer: renderer, publicAddress: publicAddress).addRoutes(to: pages)
    AppShellController().addRoutes(to: pages)
    SyncController(stores: stores, renderer: renderer, engine: web.engine).addRoutes(pages: pages, api: api)
    RoundsAPIController(stores: stores, renderer: renderer).addRoutes(to: api)
    LeagueAPIController(stores: stores).addRoutes(to: api)
    SeasonsAPIController(stores: stores).addRoutes(to: api)
    TagsAPIController(stores: stores).addRoutes(to: api)
    MoneyAPIController(stores: stores).addRoutes(to: api)
    BracketAPIController(stores: stores).addRoutes(to: api)
    MulligansAPIController(stores: stores).addRoutes(to: api)
    RatingsAPIController(stores: stores).addRoutes(to: api)
    EditingAPIController(stores: stores).addRoutes(to: api)
    CSVController(stores: stores).addRoutes(pages: pages, api: api)
    try OpenAPIController(resourcesDirectory: config.resourcesDirectory).addRoutes(to: api)
    // Anything else under the API is a 404 problem document, not a page.
    for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete, .options, .trace] {
        api.everyone.on("**", method: method) { _, _ -> Response in throw HTTPError(.notFound) }
    }
    return router
}
