import Foundation

/// The pages' load generator: `wrk` (Debian's), as the performance issue measured them, so a
/// page and the bare hello are driven by the same C client from its own process, and neither
/// shares a process or its threads with the load.
enum Wrk {
    struct Outcome: Sendable {
        var perSecond = 0.0
        /// Milliseconds, from wrk's latency distribution.
        var p99 = Double.nan
        /// Answers that were not 2xx/3xx, and socket errors.
        var failures = 0
        /// The size of one answer as sent (set by the caller).
        var bytes = 0

        /// Several runs of the same request as one: their mean rate, the worst p99.
        static func merged(_ runs: [Outcome]) -> Outcome {
            Outcome(
                perSecond: runs.map(\.perSecond).reduce(0, +) / Double(max(runs.count, 1)), p99: runs.map(\.p99).max() ?? .nan,
                failures: runs.map(\.failures).reduce(0, +), bytes: runs.first?.bytes ?? 0)
        }
    }

    static let threads = 2
    static let connections = 64

    /// `wrk -t2 -c64 -d<seconds>s --latency` against `url`, with `headers`.
    static func run(_ url: String, headers: [String] = [], seconds: Double) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["wrk", "-t\(threads)", "-c\(connections)", "-d\(max(1, Int(seconds.rounded())))s", "--latency"]
            + headers.flatMap { ["-H", $0] } + [url]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("wrk failed on \(url) (is it installed? `make bench` installs it):\n\(text)") }
        let outcome = try parse(text)
        // Which failures (statuses or socket errors) is in wrk's own words.
        if outcome.failures > 0 { FileHandle.standardError.write(Data("wrk on \(url):\n\(text)".utf8)) }
        return outcome
    }

    static func parse(_ text: String) throws -> Outcome {
        var outcome = Outcome()
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.hasPrefix("Requests/sec:"), let value = words.last.flatMap({ Double($0) }) {
                outcome.perSecond = value
            } else if line.hasPrefix("99%"), let value = words.last.flatMap(milliseconds) {
                outcome.p99 = value
            } else if line.hasPrefix("Non-2xx or 3xx responses:"), let value = words.last.flatMap({ Int($0) }) {
                outcome.failures += value
            } else if line.hasPrefix("Socket errors:") {
                // "Socket errors: connect 0, read 0, write 0, timeout 0"
                outcome.failures += words.compactMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }.reduce(0, +)
            }
        }
        guard outcome.perSecond > 0 else { throw BenchError("wrk printed no rate:\n\(text)") }
        return outcome
    }

    /// "812.00us", "3.21ms", "1.02s" in milliseconds.
    static func milliseconds(_ text: Substring) -> Double? {
        for (unit, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count)).map { $0 * scale }
        }
        return nil
    }
}
