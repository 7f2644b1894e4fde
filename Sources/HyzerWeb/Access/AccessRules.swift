import Foundation
import HyzerCore
import HyzerStore

/// Applies `AccessPolicy` with the club's current settings. The router's middleware and the
/// live-stream handler both ask this, so the two can never disagree.
struct AccessRules: Sendable {
    let stores: Stores

    /// Throws when the setting cannot be read: neither allowed nor refused (503 "try again";
    /// an open stream stays open), as for an identity that cannot be read.
    func decide(_ audience: Audience, identity: Identity?) async throws -> AccessDecision {
        // Only the viewer rule depends on a setting; skip the read for the others.
        let publicLeaderboards = audience == .viewer ? try await stores.domain.clubSettings().publicLeaderboards.value : true
        return AccessPolicy.decide(audience, identity: identity, publicLeaderboards: publicLeaderboards)
    }
}
