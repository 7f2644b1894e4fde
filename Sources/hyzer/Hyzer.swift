import ArgumentParser
import Foundation
import Hummingbird
import HyzerCore
import HyzerStore
import HyzerSync
import HyzerWeb
import Logging

@main
struct Hyzer: AsyncParsableCommand {
    /// `hyzer --version`; raised with each release.
    static let version = "0.6.0"

    static let configuration = CommandConfiguration(
        commandName: "hyzer",
        abstract: "Live scoring server for disc golf clubs.",
        discussion: "Every option can also be set with a HYZER_* environment variable (shown with each option). A flag wins over the variable.",
        version: Hyzer.version,
        subcommands: [Serve.self, Admin.self, Backup.self],
        defaultSubcommand: Serve.self
    )
}

/// Reads `HYZER_*` variables at the top, as each option's default, so nothing below
/// the executable ever reads the environment.
enum Environment {
    static func value(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the dashboard and JSON API.")

    @Option(help: "Address to listen on. (HYZER_HOST)")
    var host: String = Environment.value("HYZER_HOST") ?? "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free port and logs it. (HYZER_PORT)")
    var port: Int = Environment.value("HYZER_PORT").flatMap(Int.init) ?? 8080

    @Option(help: "Folder for domain.sqlite and sync.sqlite; created if missing. (HYZER_DATA_DIR)")
    var dataDir: String = Environment.value("HYZER_DATA_DIR") ?? "./data"

    @Option(
        help:
            "Folder holding Templates/ and Public/ (default: PREFIX/share/hyzer beside an installed binary, the binary's folder, or the working folder). (HYZER_RESOURCES)"
    )
    var resources: String?

    @Option(
        help:
            "Shared cloud: none, sqlite:PATH (default <data-dir>/cloud.sqlite) or postgres://user:password@host:port/database. (HYZER_CLOUD, HYZER_CLOUD_URL)"
    )
    var cloud: String = Environment.value("HYZER_CLOUD") ?? Environment.value("HYZER_CLOUD_URL") ?? ""

    @Flag(help: "Seed a demo course, players and an active round when the store has no rounds. (HYZER_DEMO=1)")
    var demo: Bool = ["1", "true", "yes"].contains(Environment.value("HYZER_DEMO")?.lowercased() ?? "")

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. (HYZER_LOG_LEVEL)")
    var logLevel: String = Environment.value("HYZER_LOG_LEVEL") ?? "info"

    @Option(help: "bcrypt work factor for new passwords, 4 to 31 (default 12). (HYZER_BCRYPT_COST)")
    var bcryptCost: UInt8 = Environment.value("HYZER_BCRYPT_COST").flatMap(UInt8.init) ?? 12

    @Flag(help: "Mark cookies Secure: set when Hyzer is served over HTTPS through a proxy. (HYZER_SECURE_COOKIES=1)")
    var secureCookies: Bool = ["1", "true", "yes"].contains(Environment.value("HYZER_SECURE_COOKIES")?.lowercased() ?? "")

    @Option(
        help:
            "Origins allowed to frame the TV page, as a CSP frame-ancestors list, e.g. \"'self' https://signage.example\". Default: none. (HYZER_TV_FRAME_ANCESTORS)"
    )
    var tvFrameAncestors: String = Environment.value("HYZER_TV_FRAME_ANCESTORS") ?? "'none'"

    @Option(help: "How often to back up: e.g. 1h (default), 30m, 3600s, 2d; off for never. (HYZER_BACKUP_INTERVAL)")
    var backupInterval: String = Environment.value("HYZER_BACKUP_INTERVAL") ?? "1h"

    @Option(help: "Backups kept besides one a day: the newest N (default 24). (HYZER_BACKUP_KEEP)")
    var backupKeep: Int = Environment.value("HYZER_BACKUP_KEEP").flatMap(Int.init) ?? 24

    @Option(help: "Days for which one backup a day is kept (default 30). (HYZER_BACKUP_DAYS)")
    var backupDays: Int = Environment.value("HYZER_BACKUP_DAYS").flatMap(Int.init) ?? 30

    @Option(
        help:
            "A folder on another disk (a mounted drive, a network share) each verified backup is also copied to. (HYZER_BACKUP_COPY_TO)"
    )
    var backupCopyTo: String?

    @Option(
        help:
            "Host names the server answers to, comma-separated; * for any (only behind a proxy that checks names). Default: the listen address, localhost and this machine's names. (HYZER_ALLOWED_HOSTS)"
    )
    var allowedHosts: String?

    @Option(help: "Seconds a new connection has to send a whole request head (default 10). (HYZER_HEADER_TIMEOUT)")
    var headerTimeout: Double = Environment.value("HYZER_HEADER_TIMEOUT").flatMap(Double.init) ?? 10

    @Option(help: "Seconds an idle connection is kept open (default 60); live streams are exempt. (HYZER_IDLE_TIMEOUT)")
    var idleTimeout: Double = Environment.value("HYZER_IDLE_TIMEOUT").flatMap(Double.init) ?? 60

    @Option(help: "Connections served at once; more wait their turn (default: the open-file limit less 256). (HYZER_MAX_CONNECTIONS)")
    var maxConnections: Int?

    @Option(
        help:
            "Live streams one client address may hold open (default 1000; 0 for no limit). Streams never take the last tenth of the connections. (HYZER_MAX_STREAMS_PER_CLIENT)"
    )
    var maxStreamsPerClient: Int = Environment.value("HYZER_MAX_STREAMS_PER_CLIENT").flatMap(Int.init) ?? 1000

    @Option(
        help:
            "Reverse proxies whose X-Forwarded-For names the client, comma-separated addresses or networks (e.g. 127.0.0.1,10.0.0.0/8). Default: none, the header is ignored. (HYZER_TRUSTED_PROXIES)"
    )
    var trustedProxies: String = Environment.value("HYZER_TRUSTED_PROXIES") ?? ""

    @Option(
        help:
            "The address phones reach this server at, for invite and setup links, e.g. http://192.168.1.20:8080 or https://scores.ourclub.org. Default: the address the inviter browses from. (HYZER_PUBLIC_URL)"
    )
    var publicURL: String?

    @Option(
        help:
            "A token Prometheus sends as Authorization: Bearer to read /metrics; then only it (or a signed-in admin) may. Default: /metrics is read like the leaderboards. (HYZER_METRICS_TOKEN)"
    )
    var metricsToken: String?

    @Option(
        help:
            "Instances that share a PostgreSQL cloud and this secret act as one site behind a load balancer: sessions, form tokens and API tokens are valid on every instance. At least 16 characters, the same on each. (HYZER_CLUSTER_SECRET)"
    )
    var clusterSecret: String?

    // Optional options take their environment fallback here (ArgumentParser wants no default).
    var connectionLimit: Int? { maxConnections ?? Environment.value("HYZER_MAX_CONNECTIONS").flatMap(Int.init) }
    var metricsBearer: String? { metricsToken ?? Environment.value("HYZER_METRICS_TOKEN") }
    var clusterKey: String? { clusterSecret ?? Environment.value("HYZER_CLUSTER_SECRET") }
    var proxyList: [String] { trustedProxies.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }

    func validate() throws {
        guard headerTimeout > 0, headerTimeout <= 3600, idleTimeout > 0, idleTimeout <= 86400 else {
            throw ValidationError("--header-timeout and --idle-timeout are seconds above 0 (at most an hour and a day).")
        }
        if let maxConnections = connectionLimit, maxConnections < 1 { throw ValidationError("--max-connections must be at least 1.") }
        guard maxStreamsPerClient >= 0 else { throw ValidationError("--max-streams-per-client must be 0 (no limit) or more.") }
        do { _ = try TrustedProxies(parsing: proxyList) } catch { throw ValidationError("--trusted-proxies: \(error)") }
        if let token = metricsBearer, token.count < 16 || token.contains(where: { $0.isWhitespace }) {
            throw ValidationError("--metrics-token must be at least 16 characters with no spaces (e.g. from `openssl rand -hex 24`).")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.")
        }
        do { _ = try cloudAddress() } catch { throw ValidationError("--cloud: \(error)") }
        try Secrets.refuseEmpty()
        if let problem = AppConfiguration.clusterProblem(secret: clusterKey, cloud: try cloudAddress()) { throw ValidationError(problem) }
        guard (4...31).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be between 4 and 31 (12 is the default).") }
        do { _ = try BackupSchedule.interval(backupInterval) } catch {
            throw ValidationError("--backup-interval must be a duration such as 1h, 30m, 3600s or 2d (at least 1m), or off.")
        }
        guard backupKeep >= 1, backupDays >= 0 else { throw ValidationError("--backup-keep must be at least 1 and --backup-days at least 0.") }
        guard !tvFrameAncestors.contains(";"), !tvFrameAncestors.contains(where: \.isNewline) else {
            throw ValidationError("--tv-frame-ancestors is a list of sources such as 'self' https://signage.example.")
        }
    }

    func cloudAddress() throws -> CloudAddress {
        cloud.isEmpty ? .sqlite(path: URL(fileURLWithPath: dataDir).appendingPathComponent("cloud.sqlite").path) : try CloudAddress.parse(cloud)
    }

    func run() async throws {
        var config = AppConfiguration(
            host: host, port: port, dataDirectory: URL(fileURLWithPath: dataDir),
            resourcesDirectory: try ResourceFolder.resolve(given: resources ?? Environment.value("HYZER_RESOURCES")), seedDemo: demo,
            logLevel: Logger.Level(rawValue: logLevel) ?? .info, cloud: try cloudAddress(),
            bcryptCost: bcryptCost, secureCookies: secureCookies, tvFrameAncestors: tvFrameAncestors,
            backupInterval: try BackupSchedule.interval(backupInterval), backupRetention: BackupRetention(recent: backupKeep, days: backupDays)
        )
        config.backupCopyFolder = (backupCopyTo ?? Environment.value("HYZER_BACKUP_COPY_TO")).map { URL(fileURLWithPath: $0) }
        if let spec = Environment.value("HYZER_TEST_CRASH_AT") {
            // Fault tests only (see `CrashPoints`): refuse a spec that would silently do nothing.
            guard let points = CrashPoints(spec) else { throw ValidationError("HYZER_TEST_CRASH_AT: points such as push.saved,pull.applied@0.3") }
            config.sync.crashPoints = points
        }
        if let list = Environment.value("HYZER_TEST_UNKNOWN_TYPES") {
            // Fault tests only: this build reads these types as a build older than them would.
            let types = list.split(separator: ",").map { RecordType(rawValue: String($0)) }
            guard !types.isEmpty, types.allSatisfy({ $0 != nil }) else {
                throw ValidationError("HYZER_TEST_UNKNOWN_TYPES: record types such as feePayment,season")
            }
            config.sync.unknownTypes = Set(types.compactMap { $0 })
        }
        config.allowedHosts = (allowedHosts ?? Environment.value("HYZER_ALLOWED_HOSTS")).map { $0.split(separator: ",").map(String.init) }
        config.headerTimeout = .milliseconds(Int64(headerTimeout * 1000))
        config.idleTimeout = .milliseconds(Int64(idleTimeout * 1000))
        config.maxConnections = connectionLimit
        config.maxStreamsPerClient = maxStreamsPerClient
        config.trustedProxies = proxyList
        config.metricsToken = metricsBearer
        config.clusterSecret = clusterKey
        if let address = publicURL ?? Environment.value("HYZER_PUBLIC_URL") {
            guard let base = PublicAddress.parse(address) else {
                throw CommandFailure(
                    "--public-url must be an http:// or https:// address with a host and nothing after it, such as http://192.168.1.20:8080 (got \(address))."
                )
            }
            config.publicURL = base
        }
        // Held until the process ends: a second server on the same folder is refused.
        guard let lock = try DataDirectoryLock.acquire(config.dataDirectory) else {
            throw CommandFailure("Another Hyzer server is already using \(dataDir). Stop it first, or give this one its own --data-dir.")
        }
        defer { withExtendedLifetime(lock) {} }
        let app: any ApplicationProtocol
        do {
            app = try await buildApplication(config)
        } catch let error as StoreError {
            throw CommandFailure(error.description)
        } catch let error as ConfigurationError {
            throw CommandFailure(error.description)
        }
        try await app.runService()
    }
}
