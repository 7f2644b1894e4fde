import ArgumentParser
import Foundation
import Hummingbird
import HyzerSync
import HyzerWeb
import Logging

@main
struct Hyzer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hyzer",
        abstract: "Live scoring server for disc golf clubs.",
        discussion: "Every option can also be set with a HYZER_* environment variable (shown with each option). A flag wins over the variable.",
        subcommands: [Serve.self, Admin.self],
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

    @Option(help: "Folder holding Templates/ and Public/. (HYZER_RESOURCES)")
    var resources: String = Environment.value("HYZER_RESOURCES") ?? FileManager.default.currentDirectoryPath

    @Option(help: "Shared cloud: none, sqlite:PATH (default <data-dir>/cloud.sqlite) or postgres://user:password@host:port/database. (HYZER_CLOUD, HYZER_CLOUD_URL)")
    var cloud: String = Environment.value("HYZER_CLOUD") ?? Environment.value("HYZER_CLOUD_URL") ?? ""

    @Flag(help: "Seed a demo course, players and an active round when the store has no rounds. (HYZER_DEMO=1)")
    var demo: Bool = ["1", "true", "yes"].contains(Environment.value("HYZER_DEMO")?.lowercased() ?? "")

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. (HYZER_LOG_LEVEL)")
    var logLevel: String = Environment.value("HYZER_LOG_LEVEL") ?? "info"

    @Option(help: "bcrypt work factor for new passwords, 4 to 31 (default 12). (HYZER_BCRYPT_COST)")
    var bcryptCost: UInt8 = Environment.value("HYZER_BCRYPT_COST").flatMap(UInt8.init) ?? 12

    @Flag(help: "Mark cookies Secure: set when Hyzer is served over HTTPS through a proxy. (HYZER_SECURE_COOKIES=1)")
    var secureCookies: Bool = ["1", "true", "yes"].contains(Environment.value("HYZER_SECURE_COOKIES")?.lowercased() ?? "")

    @Option(help: "Origins allowed to frame the TV page, as a CSP frame-ancestors list, e.g. \"'self' https://signage.example\". Default: none. (HYZER_TV_FRAME_ANCESTORS)")
    var tvFrameAncestors: String = Environment.value("HYZER_TV_FRAME_ANCESTORS") ?? "'none'"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.") }
        do { _ = try cloudAddress() } catch { throw ValidationError("--cloud: \(error)") }
        guard (4...31).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be between 4 and 31 (12 is the default).") }
        guard !tvFrameAncestors.contains(";"), !tvFrameAncestors.contains(where: \.isNewline) else {
            throw ValidationError("--tv-frame-ancestors is a list of sources such as 'self' https://signage.example.")
        }
    }

    func cloudAddress() throws -> CloudAddress {
        cloud.isEmpty ? .sqlite(path: URL(fileURLWithPath: dataDir).appendingPathComponent("cloud.sqlite").path) : try CloudAddress.parse(cloud)
    }

    func run() async throws {
        let config = AppConfiguration(
            host: host, port: port, dataDirectory: URL(fileURLWithPath: dataDir),
            resourcesDirectory: URL(fileURLWithPath: resources), seedDemo: demo,
            logLevel: Logger.Level(rawValue: logLevel) ?? .info, cloud: try cloudAddress(),
            bcryptCost: bcryptCost, secureCookies: secureCookies, tvFrameAncestors: tvFrameAncestors
        )
        let app = try await buildApplication(config)
        try await app.runService()
    }
}
