import Foundation

/// Who a route, API call or live stream is for. Every route belongs to exactly one.
public enum Audience: String, Sendable, CaseIterable {
    /// Anyone at all: sign-in, setup, health checks.
    case everyone
    /// Round pages, leaderboards and the TV: anyone, unless the club requires sign-in.
    case viewer
    /// Anyone signed in, whatever the role.
    case member
    /// Entering scores: an athlete for their own, coaches and admins for anyone.
    case scorer
    case coach
    case admin
}

/// The person behind a request: a signed-in player, or the owner of an API token.
public struct Identity: Sendable, Hashable {
    public var playerID: UUID
    public var handle: String
    public var displayName: String
    public var role: Role

    public init(playerID: UUID, handle: String, displayName: String, role: Role) {
        self.playerID = playerID
        self.handle = handle
        self.displayName = displayName
        self.role = role
    }
}

public enum AccessDecision: Sendable, Equatable {
    case allowed
    /// Anonymous where a signed-in person is needed: send them to sign in and back.
    case signInRequired
    /// Signed in, but the role is not enough; `needs` is the least role that is.
    case forbidden(needs: Role)
}

extension Role {
    /// Roles are ordered: each can do everything the one before it can.
    public var rank: Int {
        switch self {
        case .athlete: 0
        case .coach: 1
        case .admin: 2
        }
    }

    public func includes(_ other: Role) -> Bool { rank >= other.rank }

    /// The roles this role may give someone (a new player, an invite, a claimed profile):
    /// coaches make athletes and coaches, admins anyone, athletes no one.
    public var grantable: [Role] {
        switch self {
        case .athlete: []
        case .coach: [.athlete, .coach]
        case .admin: Role.allCases
        }
    }
}

/// The one access rule, shared by the router's middleware and the live-stream handler so a
/// stream is never a way around a page's rule.
public enum AccessPolicy {
    public static func decide(_ audience: Audience, identity: Identity?, publicLeaderboards: Bool) -> AccessDecision {
        switch audience {
        case .everyone:
            return .allowed
        case .viewer:
            return publicLeaderboards || identity != nil ? .allowed : .signInRequired
        case .member, .scorer:
            return identity != nil ? .allowed : .signInRequired
        case .coach:
            return require(.coach, identity)
        case .admin:
            return require(.admin, identity)
        }
    }

    private static func require(_ role: Role, _ identity: Identity?) -> AccessDecision {
        guard let identity else { return .signInRequired }
        return identity.role.includes(role) ? .allowed : .forbidden(needs: role)
    }
}
