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

    func run() async throws {
        for await status in await engine.statusUpdates().cancelOnGracefulShutdown() {
            let unreachable: Bool
            switch status.state {
            case .offline, .error: unreachable = true
            case .idle, .syncing: unreachable = false
            }
            guard status.hasPulled || unreachable else { continue }
            if try await stores.domain.hasEnabledAdmin() {
                logger.info("The club's admin arrived from the cloud: sign in, or ask an admin for an invite")
            } else if unreachable {
                logger.notice("No admin yet, and the cloud could not be reached to look for one. If this device starts the club, create the first admin at \(link) (single use, valid 24 hours)")
            } else {
                logger.notice("No admin yet, here or in the cloud. Create the first one at \(link) (single use, valid 24 hours)")
            }
            break
        }
        // A service that returns would end the server: wait for shutdown like the others.
        try? await gracefulShutdown()
    }
}
