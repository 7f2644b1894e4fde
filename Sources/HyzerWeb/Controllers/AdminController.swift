import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// `/admin`: users and roles, API tokens, club settings and the audit log. Admins only.
struct AdminController {
    let stores: Stores
    let credentials: any CredentialStore
    let renderer: TemplateRenderer
    let backups: BackupDesk
    let publicAddress: PublicAddressSource

    func addRoutes(to groups: RouteGroups) {
        groups.admin.get("/admin", use: page)
        groups.admin.post("/admin/users/:id/role", use: changeRole)
        groups.admin.post("/admin/users/:id/disable", use: disable)
        groups.admin.post("/admin/users/:id/enable", use: enable)
        groups.admin.post("/admin/tokens/:id/revoke", use: revokeToken)
        groups.admin.post("/admin/settings", use: settings)
        groups.admin.post("/admin/quarantine/dismiss", use: dismissQuarantined)
    }

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> HTML {
        try await adminPage(message: request.uri.queryParameters.get("done").flatMap { Self.messages($0) })
    }

    private static func messages(_ key: String) -> String? {
        [
            "role": "Role changed.", "disabled": "Account disabled.", "enabled": "Account enabled.", "revoked": "Token revoked.",
            "settings": "Settings saved.", "dismissed": "Record dismissed. The change log below says which.",
            "backup": "Backup made and verified.", "restored": "Backup restored. The data before it is in the safety backup listed below.",
        ][key]
    }

    private func adminPage(message: String? = nil, error: String? = nil, status: HTTPResponse.Status = .ok) async throws -> HTML {
        var page = AdminPage(
            users: try await stores.domain.users(), signIns: try await stores.operational.lastSignIns(),
            tokens: try await credentials.tokenList(), audit: try await stores.domain.auditLog(),
            settings: try await stores.domain.clubSettings(), deviceID: stores.domain.deviceID, backups: try await backups.view(),
            message: message, error: error
        )
        page.mismatches = try await stores.domain.activeRoundBoards().flatMap { board in
            board.scorecard.conflicts.map { conflict in
                AdminPage.Mismatch(
                    roundID: Format.id(board.snapshot.round.id), roundName: board.snapshot.round.name, player: conflict.displayName,
                    hole: conflict.hole,
                    entries: conflict.options.map { $0.enteredBy.isEmpty ? $0.strokes : "\($0.strokes) by \($0.enteredBy)" }.joined(separator: " · "),
                    eventID: conflict.winnerID)
            }
        }
        page.hasMismatches = !page.mismatches.isEmpty
        page.changes = try await stores.domain.changeLog().map {
            AdminPage.Audit(at: Format.date($0.at), actor: $0.actor, player: $0.record, change: $0.change)
        }
        page.hasChanges = !page.changes.isEmpty
        page.quarantinedCount = try await stores.domain.quarantineCount()
        page.quarantined = try await stores.domain.quarantined(limit: QuarantineRow.listed).map { QuarantineRow($0, preview: true) }
        page.hasQuarantined = !page.quarantined.isEmpty
        page.moreQuarantined = page.quarantinedCount > page.quarantined.count
        page.hasDemoData = try await stores.domain.hasDemoData()
        let current = try await publicAddress.current()
        page.publicURL = current ?? ""
        page.publicURLByFlag = publicAddress.configured != nil
        page.hasPublicURL = current != nil
        page.publicURLWarning = current.map(PublicAddress.isLoopback) ?? true
        return renderer.page(page, "admin", status: status)
    }

    @Sendable func changeRole(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.uuid("id", "Player")
        let form = try await request.decode(as: RoleForm.self, context: context)
        guard let role = form.role.flatMap(Role.init(rawValue:)) else {
            return try await adminPage(error: "Choose athlete, coach or admin.", status: .unprocessableContent).response(
                from: request, context: context)
        }
        return try await guarded(request, context) {
            _ = try await stores.domain.changeRole(of: id, to: role, actor: context.identity?.playerID)
            return "role"
        }
    }

    @Sendable func disable(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.uuid("id", "Player")
        return try await guarded(request, context) {
            _ = try await stores.domain.setDisabled(id, true, actor: context.identity?.playerID)
            // A disabled account's sessions end now here (in a cluster: on every instance);
            // on other devices at their next request, once the account arrives.
            try await credentials.endSessions(of: id)
            return "disabled"
        }
    }

    @Sendable func enable(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.uuid("id", "Player")
        return try await guarded(request, context) {
            _ = try await stores.domain.setDisabled(id, false, actor: context.identity?.playerID)
            return "enabled"
        }
    }

    @Sendable func revokeToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await credentials.revoke(token: try context.uuid("id", "Token"))
        return .redirect(to: "/admin?done=revoked", type: .normal)
    }

    @Sendable func settings(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: SettingsForm.self, context: context)
        let valid: ClubSettingsDraft.Valid
        do {
            valid = try ClubSettingsDraft(clubName: form.clubName, tvPageSeconds: form.tvPageSeconds).validated()
        } catch {
            return try await adminPage(error: error.summary, status: .unprocessableContent).response(from: request, context: context)
        }
        // Blank clears it; a form without the field (--public-url set) leaves it.
        let typed = (form.publicURL ?? "").trimmingCharacters(in: .whitespaces)
        let address = typed.isEmpty ? "" : PublicAddress.parse(typed)
        guard let address else {
            return try await adminPage(
                error: "\(typed) is not an address phones can open: http:// or https://, a host and optionally a port (http://192.168.1.20:8080).",
                status: .unprocessableContent
            ).response(from: request, context: context)
        }
        var errors = FieldErrors()
        let currency = form.currency.map { Money.currency($0, into: &errors) }
        if !errors.isEmpty {
            return try await adminPage(error: errors.summary, status: .unprocessableContent).response(from: request, context: context)
        }
        _ = try await stores.domain.updateClubSettings(
            clubName: valid.clubName, tvPageSeconds: valid.tvPageSeconds, publicLeaderboards: form.publicLeaderboards != nil,
            openSignUp: form.openSignUp != nil, publicURL: form.publicURL == nil ? nil : address, currency: currency,
            publicPots: form.currency == nil ? nil : form.publicPots != nil
        )
        return .redirect(to: "/admin?done=settings", type: .normal)
    }

    /// Runs a user change; the last-admin guard answers with the page and its reason (409).
    /// Lets a record kept unread go: deleted here, kept in the cloud, named in the change log.
    @Sendable func dismissQuarantined(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: DismissForm.self, context: context)
        guard let key = form.key.flatMap(Int64.init) else {
            throw Problem(status: .unprocessableContent, title: "Invalid input", detail: "Name the record by the key its row gives.")
        }
        guard try await stores.domain.dismissQuarantined(key: key, by: context.identity?.playerID) else {
            throw Problem(status: .notFound, title: "Not found", detail: "No record with key \(key) is kept unread.")
        }
        return .redirect(to: "/admin?done=dismissed#quarantine", type: .normal)
    }

    private func guarded(_ request: Request, _ context: AppRequestContext, _ change: () async throws -> String) async throws -> Response {
        do {
            return .redirect(to: "/admin?done=\(try await change())", type: .normal)
        } catch let error as AccountError {
            return try await adminPage(error: error.description, status: .conflict).response(from: request, context: context)
        }
    }
}

/// Invite links: coaches invite athletes and coaches, admins anyone. An invite may be for an
/// existing player, who then claims their profile with the scores already entered.
struct InvitesController {
    let stores: Stores
    let renderer: TemplateRenderer
    let publicAddress: PublicAddressSource

    func addRoutes(to groups: RouteGroups) {
        groups.coach.get("/invites", use: page)
        groups.coach.post("/invites", use: create)
        groups.coach.post("/invites/:id/revoke", use: revoke)
        groups.coach.post("/invites/bulk", use: createMany)
    }

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(try await invitesPage(context, request: request, link: nil, form: FormState()), "invites")
    }

    /// The configured public address, or the one the inviter is browsing from.
    private func base(_ request: Request) async throws -> String { try await publicAddress.base(request) }

    @Sendable func revoke(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await request.decode(as: ConfirmForm.self, context: context)
        let roles = (context.identity?.role ?? .athlete).grantable
        guard try await stores.operational.revokeInvite(try context.uuid("id", "Invite"), roles: roles) else {
            throw StoreError.notFound("Open invite")
        }
        return .redirect(to: "/invites?notice=revoked", type: .normal)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: InviteForm.self, context: context)
        let inviter = context.identity?.role ?? .athlete
        guard let role = form.role.flatMap(Role.init(rawValue:)) else {
            let errors = FieldErrors("role", "Choose one of: \(inviter.grantable.map(\.rawValue).joined(separator: ", ")).")
            return try await refused(errors, request, context)
        }
        var playerID: UUID?
        if let text = form.playerID, !text.isEmpty {
            guard let id = UUID(text: text), let player = try await stores.domain.player(id), player.isClaimable(through: role) else {
                return try await refused(
                    FieldErrors("playerID", "Choose a player who has no account yet and whose role the invite covers."), request, context)
            }
            playerID = player.id
        }
        let token: String
        do {
            token = try await stores.operational.createLink(
                OneTimeLink(
                    kind: .invite, role: role, playerID: playerID, createdBy: context.identity?.playerID,
                    expiresAt: Date(timeIntervalSinceNow: Accounts.inviteLifetime)
                ), grantedBy: inviter)
        } catch let errors as FieldErrors {
            return try await refused(errors, request, context)
        }
        let link = "\(try await base(request))/join?invite=\(token)"
        return try renderer.page(try await invitesPage(context, request: request, link: link, form: FormState()), "invites", status: .created)
            .response(from: request, context: context)
    }

    /// One athlete's invite for each ticked player with no account yet: the sheet to print or
    /// copy. The links are shown only here (they are stored as digests), so the page is the
    /// coach's only copy: it says so.
    @Sendable func createMany(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: BulkInviteForm.self, context: context)
        let inviter = context.identity?.role ?? .athlete
        let ticked = (form.players ?? [:]).keys.compactMap(UUID.init(text:))
        guard !ticked.isEmpty else { return try await refused(FieldErrors("players", "Tick the players to invite."), request, context) }
        guard inviter.grantable.contains(.athlete) else {
            throw Problem(status: .forbidden, title: "Forbidden", detail: "You may not invite athletes.")
        }
        var players: [Player] = []
        for id in ticked {
            guard let player = try await stores.domain.player(id), player.isClaimable(through: .athlete) else {
                return try await refused(
                    FieldErrors("players", "Only players who have no account yet can be invited to claim their profile."), request, context)
            }
            players.append(player)
        }
        players.sort { $0.displayName.localizedCaseInsensitiveCompare($1.displayName) == .orderedAscending }
        let base = try await base(request)
        var cards: [InviteSheetPage.Card] = []
        for player in players {
            let token = try await stores.operational.createLink(
                OneTimeLink(
                    kind: .invite, role: .athlete, playerID: player.id, createdBy: context.identity?.playerID,
                    expiresAt: Date(timeIntervalSinceNow: Accounts.inviteLifetime)
                ), grantedBy: inviter)
            let link = "\(base)/join?invite=\(token)"
            cards.append(.init(displayName: player.displayName, handle: player.handle.value, link: link, code: try QRCode(link).svg))
        }
        let page = InviteSheetPage(
            cards: cards, count: cards.count, lines: cards.map { "\($0.displayName): \($0.link)" }.joined(separator: "\n"),
            baseWarning: PublicAddress.isLoopback(base)
                ? "These links start with \(base), which only this machine can open: set the public address on /admin first, then make the sheet again."
                : nil)
        return try renderer.page(page, "invite-sheet", status: .created).response(from: request, context: context)
    }

    private func refused(_ errors: FieldErrors, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        try renderer.page(
            try await invitesPage(context, request: request, link: nil, form: FormState(values: [:], errors: errors)), "invites",
            status: .unprocessableContent
        )
        .response(from: request, context: context)
    }

    private func invitesPage(_ context: AppRequestContext, request: Request, link: String?, form: FormState) async throws -> InvitesPage {
        let players = try await stores.domain.players()
        let base = try await base(request)
        let names = Dictionary(players.map { ($0.id, $0.displayName) }, uniquingKeysWith: { first, _ in first })
        let grantable = (context.identity?.role ?? .athlete).grantable
        // Roles are ordered, so the highest role one may grant covers every profile one may invite.
        let unclaimed = players.filter { player in grantable.last.map { player.isClaimable(through: $0) } ?? false }
        var page = InvitesPage(
            roles: grantable.map { Option(value: $0.rawValue, label: $0.rawValue.capitalized, selected: $0 == .athlete) },
            players: unclaimed.map { Option(value: Format.id($0.id), label: "\($0.displayName) (@\($0.handle.value))", selected: false) },
            link: link,
            invites: try await stores.operational.invites().map {
                let open = $0.usedAt == nil && $0.expiresAt > Date()
                return InvitesPage.Item(
                    id: Format.id($0.id), role: $0.role.rawValue, player: $0.playerID.flatMap { names[$0] } ?? "new player",
                    created: Format.date($0.createdAt), status: $0.usedAt != nil ? "used" : (open ? "open" : "expired or revoked"),
                    isOpen: open && grantable.contains($0.role))
            },
            form: form,
            base: base,
            baseWarning: PublicAddress.isLoopback(base)
                ? "Links start with \(base), which only this machine can open: phones cannot follow them. Set the address phones use on /admin (Club settings, for example http://192.168.1.20:8080)."
                : nil
        )
        let athletes = players.filter { $0.isClaimable(through: .athlete) }
        page.unclaimed =
            grantable.contains(.athlete)
            ? athletes.map { Option(value: Format.id($0.id), label: "\($0.displayName) (@\($0.handle.value))", selected: true) } : []
        page.hasUnclaimed = !page.unclaimed.isEmpty
        return page
    }
}
