import Foundation
import HyzerCore
import HyzerStore

/// Applies `AccessPolicy` with the club's current settings. The router's middleware and the
/// live-stream handler both ask this, so the two can never disagree.
struct AccessRules: Sendable {
    let stores: Stores

    func decide(_ audience: Audience, identity: Identity?) async -> AccessDecision {
        // Only the viewer rule depends on a setting; skip the read for the others.
        let publicLeaderboards = audience == .viewer ? await self.publicLeaderboards() : true
        return AccessPolicy.decide(audience, identity: identity, publicLeaderboards: publicLeaderboards)
    }

    /// An unreadable setting keeps boards private: failing closed.
    private func publicLeaderboards() async -> Bool {
        (try? await stores.domain.clubSettings().publicLeaderboards.value) ?? false
    }
}
