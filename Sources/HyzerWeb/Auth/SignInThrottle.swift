import Foundation
import HyzerCore

/// The server's one `SignInGuard` and the sign-up window, shared by every request. Kept in
/// memory: a restart forgives, which only an attacker who can restart the server could use.
actor SignInThrottle {
    private var guardian = SignInGuard()
    /// Sign-ups (each a bcrypt hash) per client address: a venue's Wi-Fi shares one address,
    /// so the share is generous.
    private var joins = AttemptWindow(limit: 20, window: 10 * 60)

    func attempt(handle: String, stamp: String, address: String) -> SignInGuard.Verdict {
        guardian.attempt(handle: handle, stamp: stamp, address: address)
    }

    func succeeded(handle: String, stamp: String, address: String) {
        guardian.succeeded(handle: handle, stamp: stamp, address: address)
    }

    func withdraw(handle: String, stamp: String, address: String) {
        guardian.withdraw(handle: handle, stamp: stamp, address: address)
    }

    /// Seconds to wait before this address may sign up again, or nil to go ahead.
    func join(from address: String) -> Int? {
        joins.attempt(address)
    }
}
