import Foundation

public enum Role: String, Codable, CaseIterable, Sendable {
    case athlete, coach, admin
}

/// A player's unique, normalized handle: lower case letters, digits, `.`, `_` and `-`.
public struct Handle: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let value: String

    public static let allowedLength = 2...32

    /// Normalizes what a person typed ("  @Ann.Lee " → "ann.lee"), or explains what is wrong.
    public static func parse(_ raw: String?) -> Result<Handle, FieldErrors> {
        var text = TextRules.cleaned(raw).lowercased()
        if text.hasPrefix("@") { text.removeFirst() }
        if text.isEmpty {
            return .failure(FieldErrors("handle", "Handle is required."))
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")
        guard text.allSatisfy({ allowed.contains($0) }) else {
            return .failure(FieldErrors("handle", "Handle can use only letters a–z, digits, '.', '_' and '-'."))
        }
        guard allowedLength.contains(text.count) else {
            return .failure(FieldErrors("handle", "Handle must be \(allowedLength.lowerBound) to \(allowedLength.upperBound) characters."))
        }
        return .success(Handle(trusted: text))
    }

    /// For values read back from the store, which only ever holds normalized handles.
    public init(trusted value: String) { self.value = value }

    public var description: String { value }
    public static func < (lhs: Handle, rhs: Handle) -> Bool { lhs.value < rhs.value }
}

public struct Player: Identifiable, Hashable, Sendable {
    public var id: UUID
    public var displayName: String
    public var handle: Handle
    public var role: Role
    public var cloudRecordName: String?
    public var createdAt: Date
    public var updatedAt: HLC
    /// bcrypt; nil for a player who never signs in (a coach scores for them).
    public var passwordHash: String?
    /// A disabled player keeps every score but can no longer sign in or use a token.
    public var disabled: Bool
    /// The device the player was created on.
    public var originDeviceID: UUID?
    /// Removed by a coach while scores still refer to them: kept in results and sync, gone
    /// from pickers and lists, and unable to sign in.
    public var archived = false
    /// The division they usually play (MPO, FPO…), "" when none: preselected when they join a
    /// round of an event that has it.
    public var division = ""
    /// A rating a coach entered (their PDGA rating, say): it propagates until Hyzer has rated
    /// enough of their rounds for its own.
    public var enteredRating: Int?
    /// Their PDGA membership number, when the club has it (public: it is on every PDGA result).
    public var pdgaNumber: Int?
    /// How the club reaches them: kept for coaches, never shown to other players or in the API.
    public var email: String?

    /// PDGA numbers as the PDGA issues them.
    public static let pdgaNumberRange = 1...9_999_999

    /// A PDGA number as a field or a CSV cell gives it ("#12345" too): empty for none.
    public static func validPDGANumber(text: String?, field: String = "pdgaNumber") throws(FieldErrors) -> Int? {
        let trimmed = (text ?? "").trimmingCharacters(in: .whitespaces).trimmingPrefix("#")
        if trimmed.isEmpty { return nil }
        guard let number = Int(trimmed), pdgaNumberRange.contains(number) else {
            throw FieldErrors(field, "A PDGA number is a whole number from 1 to 9999999, or empty for none.")
        }
        return number
    }

    /// An email address as given: empty for none; one address with a name, an @ and a domain.
    public static func validEmail(text: String?, field: String = "email") throws(FieldErrors) -> String? {
        let trimmed = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard trimmed.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix("."), !trimmed.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "," })
        else { throw FieldErrors(field, "\(trimmed) is not an email address (name@example.org).") }
        return trimmed
    }

    /// The ratings a coach may enter.
    public static let ratingRange = 400...1200

    /// An entered rating as given (nil clears it): refused outside `ratingRange`.
    public static func validRating(_ rating: Int?) throws(FieldErrors) -> Int? {
        guard let rating, !ratingRange.contains(rating) else { return rating }
        throw ratingRefused
    }

    static var ratingRefused: FieldErrors {
        FieldErrors("rating", "A rating is a whole number from \(ratingRange.lowerBound) to \(ratingRange.upperBound), or empty (null) for none.")
    }

    /// An entered rating as a form field gives it: empty for none.
    public static func validRating(text: String?) throws(FieldErrors) -> Int? {
        let trimmed = (text ?? "").trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        guard let rating = Int(trimmed) else { throw ratingRefused }
        return try validRating(rating)
    }

    public init(
        id: UUID, displayName: String, handle: Handle, role: Role, cloudRecordName: String? = nil, createdAt: Date, updatedAt: HLC,
        passwordHash: String? = nil, disabled: Bool = false, originDeviceID: UUID? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.handle = handle
        self.role = role
        self.cloudRecordName = cloudRecordName
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.passwordHash = passwordHash
        self.disabled = disabled
        self.originDeviceID = originDeviceID
    }

    public var canSignIn: Bool { passwordHash != nil && !disabled && !archived }
}

/// What a person submits to create a player, before it is checked.
public struct PlayerDraft: Sendable, Hashable {
    public var displayName: String?
    public var handle: String?
    public var role: String?

    public init(displayName: String? = nil, handle: String? = nil, role: String? = nil) {
        self.displayName = displayName
        self.handle = handle
        self.role = role
    }

    public struct Valid: Sendable, Hashable {
        public var displayName: String
        public var handle: Handle
        public var role: Role

        public init(displayName: String, handle: Handle, role: Role) {
            self.displayName = displayName
            self.handle = handle
            self.role = role
        }
    }

    public func validated() throws(FieldErrors) -> Valid {
        var errors = FieldErrors()
        let name = TextRules.name(displayName, field: "displayName", label: "Name", maxLength: 60, into: &errors)
        var handle = Handle(trusted: "")
        switch Handle.parse(self.handle) {
        case .success(let parsed): handle = parsed
        case .failure(let problems): problems.entries.forEach { errors.add($0.field, $0.message) }
        }
        let roleText = TextRules.cleaned(role)
        let role = roleText.isEmpty ? Role.athlete : Role(rawValue: roleText.lowercased())
        if role == nil {
            errors.add("role", "Role must be athlete, coach or admin.")
        }
        try errors.throwIfAny()
        return Valid(displayName: name, handle: handle, role: role ?? .athlete)
    }
}
