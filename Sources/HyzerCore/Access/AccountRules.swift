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
    public static func allows(_ reporter: Identity, toScore playerID: UUID) -> Bool {
        reporter.role.includes(.coach) || reporter.playerID == playerID
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
