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
        subcommands: [Serve.self],
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

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.") }
        do { _ = try cloudAddress() } catch { throw ValidationError("--cloud: \(error)") }
    }

    func cloudAddress() throws -> CloudAddress {
        cloud.isEmpty ? .sqlite(path: URL(fileURLWithPath: dataDir).appendingPathComponent("cloud.sqlite").path) : try CloudAddress.parse(cloud)
    }

    func run() async throws {
        let config = AppConfiguration(
            host: host, port: port, dataDirectory: URL(fileURLWithPath: dataDir),
            resourcesDirectory: URL(fileURLWithPath: resources), seedDemo: demo,
            logLevel: Logger.Level(rawValue: logLevel) ?? .info, cloud: try cloudAddress()
        )
        let app = try await buildApplication(config)
        try await app.runService()
    }
}
