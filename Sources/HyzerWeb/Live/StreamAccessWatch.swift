import ServiceLifecycle

/// Open streams were allowed when they opened, and what allowed them can change: public
/// leaderboards turned off, a role taken away, an account disabled, a token revoked, a
/// sign-out. When a commit moves the stores' access stamp (checked twice a second: an atomic
/// read), and every half minute for what no commit marks (a session running out, a write by
/// another process), the hub decides its streams again and closes those now refused.
struct StreamAccessWatch: Service {
    let hub: StreamHub
    let access: StreamAccess
    let stamp: @Sendable () -> UInt64
    var interval: Duration = .milliseconds(500)
    var backstop: Duration = .seconds(30)

    func run() async throws {
        await cancelWhenGracefulShutdown { await watch() }
    }

    private func watch() async {
        var seen = stamp()
        var checked = ContinuousClock.now
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            let now = stamp()
            guard now != seen || ContinuousClock.now - checked >= backstop else { continue }
            seen = now
            checked = .now
            await hub.recheck(access)
        }
    }
}
