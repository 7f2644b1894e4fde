import Foundation
import HyzerCore
import HyzerStore

struct AdminPage: Sendable {
    struct User: Sendable {
        var id: String
        var displayName: String
        var handle: String
        var role: String
        var roles: [Option]
        var disabled: Bool
        var canSignIn: Bool
        var lastSignIn: String
        var origin: String
        var aliases: String
        var hasAliases: Bool
    }

    struct Token: Sendable {
        var id: String
        var name: String
        var owner: String
        var created: String
        var lastUsed: String
        var revoked: Bool
    }

    struct Audit: Sendable {
        var at: String
        var actor: String
        var player: String
        var change: String
    }

    /// A hole where scorekeepers disagree, in a live round: what a coach should resolve.
    struct Mismatch: Sendable {
        var roundID: String
        var roundName: String
        var player: String
        var hole: Int
        var entries: String
        var eventID: String
    }

    var title = "Admin"
    var mismatches: [Mismatch] = []
    var hasMismatches = false
    var users: [User]
    var tokens: [Token]
    var hasTokens: Bool
    var audit: [Audit]
    var hasAudit: Bool
    /// Edits and removals of courses, events and rounds (`player` names the record).
    var changes: [Audit] = []
    var hasChanges = false
    /// Pulled records kept unread, each with a Dismiss button.
    var quarantined: [QuarantineRow] = []
    var quarantinedCount = 0
    var hasQuarantined = false
    var moreQuarantined = false
    var quarantinedListed = QuarantineRow.listed
    let dismissible = true
    var hasDemoData = false
    /// Where check-in and invite links start ("" when not set: the address each page was
    /// opened at), and whether `--public-url` set it (then it is not edited here).
    var publicURL = ""
    var publicURLByFlag = false
    var hasPublicURL = false
    var publicURLWarning = false
    var clubName: String
    var tvPageSeconds: Int
    var currency = Money.defaultCurrency
    var publicPots = false
    var publicLeaderboards: Bool
    var openSignUp: Bool
    var backups: BackupsView
    var message: String?
    var error: String?

    init(
        users: [UserEntry], signIns: [UUID: Date], tokens: [APITokenEntry], audit: [AuditEntry], settings: ClubSettingsPayload, deviceID: UUID,
        backups: BackupsView, message: String? = nil, error: String? = nil
    ) {
        self.backups = backups
        self.users = users.map { entry in
            let player = entry.player
            return User(
                id: Format.id(player.id), displayName: player.displayName, handle: player.handle.value, role: player.role.rawValue,
                roles: Role.allCases.map { Option(value: $0.rawValue, label: $0.rawValue.capitalized, selected: $0 == player.role) },
                disabled: player.disabled, canSignIn: player.passwordHash != nil,
                lastSignIn: signIns[player.id].map { Format.date($0) } ?? "—",
                origin: player.originDeviceID.map { $0 == deviceID ? "this device" : String(Format.id($0).prefix(8)) } ?? "—",
                aliases: entry.aliases.map { "\($0.displayName) (\(String(Format.id($0.id).prefix(8))))" }.joined(separator: ", "),
                hasAliases: !entry.aliases.isEmpty
            )
        }
        let handles = Dictionary(users.map { ($0.player.id, $0.player.handle.value) }, uniquingKeysWith: { first, _ in first })
        self.tokens = tokens.map {
            Token(
                id: Format.id($0.id), name: $0.name, owner: handles[$0.playerID].map { "@\($0)" } ?? "unknown", created: Format.date($0.createdAt),
                lastUsed: $0.lastUsedAt.map { Format.date($0) } ?? "never", revoked: $0.revoked)
        }
        hasTokens = !tokens.isEmpty
        self.audit = audit.map { Audit(at: Format.date($0.at), actor: $0.actor, player: $0.player, change: $0.change) }
        hasAudit = !audit.isEmpty
        clubName = settings.clubName.value
        tvPageSeconds = settings.tvPageSeconds.value
        publicLeaderboards = settings.publicLeaderboards.value
        openSignUp = settings.allowsOpenSignUp
        currency = settings.currencyCode
        publicPots = settings.showsPots
        self.message = message
        self.error = error
    }
}
