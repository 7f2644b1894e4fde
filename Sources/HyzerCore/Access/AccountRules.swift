import Foundation

/// Passwords: long enough to resist guessing, short enough for bcrypt, which reads only the
/// first 72 bytes (a longer one would silently be cut).
public enum PasswordRules {
    public static let minimumLength = 10
    public static let maximumBytes = 72

    public static func validate(_ password: String?, field: String = "password") throws(FieldErrors) -> String {
        let password = password ?? ""
        if password.count < minimumLength {
            throw FieldErrors(field, "Use at least \(minimumLength) characters.")
        }
        if password.utf8.count > maximumBytes {
            throw FieldErrors(field, "Use at most \(maximumBytes) bytes (about \(maximumBytes) letters).")
        }
        return password
    }
}

/// Who may record a score for whom: an athlete only their own, in a round they play;
/// coaches and admins anyone in the round.
public enum ScorePermission {
    /// Coaches score anyone; an athlete scores themselves and the other players of their card.
    /// On a team round (`teams`, with cards of teams) the one scored is a team: its players
    /// score it, and so do the players of the other teams on its card.
    public static func allows(_ reporter: Identity, toScore playerID: UUID, cards: [Card] = [], teams: [Team] = []) -> Bool {
        // Both sides as their teams: a player named on a team round is their team (whose
        // score the rules then ask for by name).
        func team(_ id: UUID) -> UUID { teams.first { $0.playerIDs.contains(id) }?.id ?? id }
        let (me, scored) = (team(reporter.playerID), team(playerID))
        return reporter.role.includes(.coach) || me == scored
            || cards.contains { $0.playerIDs.contains(me) && $0.playerIDs.contains(scored) }
    }
}

/// The same person created on two devices apart (the same normalized handle) becomes one
/// identity on sync. Every device picks the same canonical player from the same records:
/// the smallest id. The others stay as aliases; their scores count for the canonical one.
public enum IdentityMerge {
    public static func canonical(of ids: some Collection<UUID>) -> UUID? {
        ids.min { $0.lowercasedText < $1.lowercasedText }
    }
}

/// A new account: the player's name and handle and a password, checked together so every
/// problem shows at once.
public struct AccountDraft: Sendable {
    public var displayName: String?
    public var handle: String?
    public var role: Role
    public var password: String?

    public init(displayName: String?, handle: String?, role: Role = .athlete, password: String?) {
        self.displayName = displayName
        self.handle = handle
        self.role = role
        self.password = password
    }

    public struct Valid: Sendable {
        public var player: PlayerDraft.Valid
        public var password: String
    }

    public func validated() throws(FieldErrors) -> Valid {
        var errors = FieldErrors()
        var player: PlayerDraft.Valid?
        do { player = try PlayerDraft(displayName: displayName, handle: handle, role: role.rawValue).validated() } catch { errors = error }
        var password: String?
        do { password = try PasswordRules.validate(self.password) } catch { error.entries.forEach { errors.add($0.field, $0.message) } }
        try errors.throwIfAny()
        guard let player, let password else { throw errors }
        return Valid(player: player, password: password)
    }
}

extension Player {
    /// Whether an invite of this role may hand the profile to whoever opens it: only a
    /// profile nobody signs in with yet, and never one that outranks the invite.
    public func isClaimable(through inviteRole: Role) -> Bool {
        passwordHash == nil && !archived && inviteRole.includes(role)
    }
}

/// The club settings form, before it is checked.
public struct ClubSettingsDraft: Sendable {
    public static let tvPageSecondsRange = 3...600

    public var clubName: String?
    public var tvPageSeconds: String?

    public init(clubName: String?, tvPageSeconds: String?) {
        self.clubName = clubName
        self.tvPageSeconds = tvPageSeconds
    }

    public struct Valid: Sendable, Equatable {
        public var clubName: String
        public var tvPageSeconds: Int
    }

    public func validated() throws(FieldErrors) -> Valid {
        var errors = FieldErrors()
        let name = TextRules.name(clubName, field: "clubName", label: "Club name", maxLength: 60, into: &errors)
        let seconds = TextRules.wholeNumber(TextRules.cleaned(tvPageSeconds))
        if seconds.map({ !Self.tvPageSecondsRange.contains($0) }) ?? true {
            errors.add(
                "tvPageSeconds",
                "TV seconds per page must be a whole number from \(Self.tvPageSecondsRange.lowerBound) to \(Self.tvPageSecondsRange.upperBound).")
        }
        try errors.throwIfAny()
        return Valid(clubName: name, tvPageSeconds: seconds ?? 10)
    }
}
