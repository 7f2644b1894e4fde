import Foundation
import HyzerCore
import HyzerStore
import HyzerSync
import Metrics
import Prometheus
import Synchronization

/// `/metrics` in the Prometheus text format, written by swift-prometheus.
///
/// Two registries: swift-metrics has one backend per process, into which Hummingbird's
/// `MetricsMiddleware` (requests by route and status, with durations) and the sync engine
/// (push and pull durations, records moved) record as things happen. This app's own state —
/// streams, sync state, outbox, backups — is read when scraped, into a registry of its own,
/// so that several apps in one process (the tests) never mix their gauges.
final class ServerMetrics: Sendable {
    /// Bootstrapped on first use, once per process.
    static let process: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // swift-metrics labels use dots (`http.server.request.duration`); Prometheus names cannot.
        factory.nameAndLabelSanitizer = { name, labels in
            (ServerMetrics.sanitized(name), labels.map { (ServerMetrics.sanitized($0.0), $0.1) })
        }
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        MetricsSystem.bootstrap(factory)
        return registry
    }()

    private let registry: PrometheusCollectorRegistry
    private let subscribers: Prometheus.Gauge
    private let connectionTasks: Prometheus.Gauge
    private let framesRendered: Prometheus.Counter
    private let framesSkipped: Prometheus.Counter
    private let syncStates: [String: Prometheus.Gauge]
    private let outboxPending: Prometheus.Gauge
    private let outboxInFlight: Prometheus.Gauge
    private let outboxFailed: Prometheus.Gauge
    private let lastBackupAge: Prometheus.Gauge
    private let laneAnswers: Prometheus.Counter
    /// Counters only go up: each scrape adds what happened since the one before.
    private let reported = Mutex((rendered: 0, skipped: 0, lane: 0))

    init() {
        _ = Self.process
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        func name(_ subsystem: String, _ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "hyzer", subsystem: subsystem, metricName: metric, unitName: unit, helpText: help)
        }
        subscribers = registry.makeGauge(
            descriptor: name("live", "subscribers", "", "Open live streams (round pages, leaderboards, TVs, sync pages)."))
        connectionTasks = registry.makeGauge(
            descriptor: name("http", "connection_tasks", "", "Connections with a request task (one opened for a live stream has none)."))
        framesRendered = registry.makeCounter(
            descriptor: name("live", "frames_rendered", "total", "Standings and TV frames rendered (each sent to every subscriber)."))
        framesSkipped = registry.makeCounter(
            descriptor: name("live", "frames_skipped", "total", "States a slow client never saw because a newer one replaced them."))
        let state = name("sync", "state", "", "1 for the sync engine's current state, 0 for the others.")
        syncStates = Dictionary(
            uniqueKeysWithValues: ["idle", "syncing", "offline", "error"].map { ($0, registry.makeGauge(descriptor: state, labels: [("state", $0)])) }
        )
        outboxPending = registry.makeGauge(descriptor: name("outbox", "pending", "", "Local changes waiting to be pushed to the cloud."))
        outboxInFlight = registry.makeGauge(descriptor: name("outbox", "in_flight", "", "Local changes being pushed now."))
        outboxFailed = registry.makeGauge(descriptor: name("outbox", "failed", "", "Local changes the cloud refused; see /sync."))
        lastBackupAge = registry.makeGauge(
            descriptor: name("backup", "last_age", "seconds", "Seconds since the newest verified backup; -1 when there is none."))
        laneAnswers = registry.makeCounter(
            descriptor: name("http", "kept_page_lane_answers", "total", "Requests for kept pages answered ahead of the router."))
    }

    /// Reads the app's state and writes both registries.
    func scrape(
        hub: StreamHub, connectionTasks tasks: ConnectionTasks, live: LiveStandings, engine: SyncEngine, stores: Stores, lane: KeptPageLane
    ) async -> [UInt8] {
        let streams = hub.statistics
        let rendered = await live.framesRenderedCount
        let sync = await engine.status()
        subscribers.set(Int64(streams.subscribers))
        connectionTasks.set(Int64(tasks.count))
        let answered = lane.answered.load(ordering: .relaxed)
        let (newlyRendered, newlySkipped, newlyAnswered) = reported.withLock { last in
            defer { last = (rendered, streams.framesSkipped, answered) }
            return (max(0, rendered - last.rendered), max(0, streams.framesSkipped - last.skipped), max(0, answered - last.lane))
        }
        laneAnswers.increment(by: Int64(newlyAnswered))
        framesRendered.increment(by: Int64(newlyRendered))
        framesSkipped.increment(by: Int64(newlySkipped))
        for (name, gauge) in syncStates { gauge.set(to: name == sync.state.name ? 1.0 : 0.0) }
        outboxPending.set(Int64(sync.counts.pending))
        outboxInFlight.set(Int64(sync.counts.inFlight))
        outboxFailed.set(Int64(sync.counts.failed))
        let newest = stores.backups.newestVerified()
        lastBackupAge.set(newest.map { max(0, Date().timeIntervalSince($0.createdAt)) } ?? -1)
        var bytes = registry.emitToBuffer()
        var recorded: [UInt8] = []
        Self.process.emit(into: &recorded)
        bytes += Self.addingHelp(to: recorded)
        return bytes
    }

    /// HELP for what swift-metrics records (its API carries no help text): Hummingbird's
    /// request metrics — their names kept as Hummingbird writes them, `hb_requests` and
    /// `hb_request_errors` without a `_total`, so dashboards made for Hummingbird keep working —
    /// and the sync engine's.
    static let recordedHelp: [String: String] = [
        "hb_requests": "HTTP requests answered, by route, method and status (Hummingbird's name).",
        "hb_request_errors": "HTTP requests that ended in an error, by route, method and error (Hummingbird's name).",
        "http_server_active_requests": "HTTP requests being answered now.",
        "http_server_request_duration": "Time to answer an HTTP request, in seconds, by route, method and status.",
        "hyzer_sync_duration_seconds": "Time of one sync operation (push, pull, account check), by operation and result.",
        "hyzer_sync_records_total": "Records moved by sync operations, by operation and result.",
    ]

    /// Puts a `# HELP` line before each family's `# TYPE` line that has none and is named above.
    static func addingHelp(to text: [UInt8]) -> [UInt8] {
        var lines = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        while index < lines.count {
            let parts = lines[index].split(separator: " ")
            if parts.count >= 3, parts[0] == "#", parts[1] == "TYPE", let help = recordedHelp[String(parts[2])],
                index == 0 || !lines[index - 1].hasPrefix("# HELP \(parts[2]) ")
            {
                lines.insert("# HELP \(parts[2]) \(help)", at: index)
                index += 1
            }
            index += 1
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    static func sanitized(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    }
}
