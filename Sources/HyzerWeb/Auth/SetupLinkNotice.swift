import HyzerStore
import HyzerSync
import Logging
import ServiceLifecycle

/// The setup link on a device that shares a cloud. Accounts arrive by sync, so "no admin yet"
/// is only true once a pull has brought what the cloud holds: the link is logged then, and only
/// if there is still no admin. If the cloud cannot be reached, this device may be the club's
/// first, so the link is logged with that caveat (the setup page refuses it once an admin
/// arrives).
struct SetupLinkNotice: Service {
    let engine: SyncEngine
    let stores: Stores
    let link: String
    let logger: Logger
    /// How long to wait for a first pull before offering the link with the caveat: a cloud
    /// that is merely slow to answer at start (its first account check can fail) is not
    /// "unreachable".
    var patience: Duration = .seconds(15)

    func run() async throws {
        let pulled = await cancelWhenGracefulShutdown { await firstPull() }
        if let pulled {
            if try await stores.domain.hasEnabledAdmin() {
                logger.info("The club's admin arrived from the cloud: sign in, or ask an admin for an invite")
            } else if pulled {
                logger.notice("No admin yet, here or in the cloud. Create the first one at \(link) (single use, valid 24 hours)")
            } else {
                logger.notice(
                    "No admin yet, and the cloud could not be reached to look for one. If this device starts the club, create the first admin at \(link) (single use, valid 24 hours)"
                )
            }
        }
        // A service that returns would end the server: wait for shutdown like the others.
        try? await gracefulShutdown()
    }

    /// true once a pull has brought what the cloud holds; false when none came within
    /// `patience`; nil when the server stops first.
    private func firstPull() async -> Bool? {
        await withTaskGroup(of: Bool?.self) { group in
            group.addTask {
                for await status in await engine.statusUpdates() where status.hasPulled { return true }
                return nil
            }
            group.addTask {
                do { try await Task.sleep(for: patience) } catch { return nil }
                return false
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
