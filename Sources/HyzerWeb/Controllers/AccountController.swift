import Foundation
import Hummingbird
import HummingbirdAuth
import HyzerCore
import HyzerStore

/// Signing in and out, the first admin's setup, and joining by invite or open sign-up.
struct AccountController {
    let stores: Stores
    let renderer: TemplateRenderer
    let accounts: Accounts
    let throttle: SignInThrottle
    let sessionLifetime: Duration

    func addRoutes(to groups: RouteGroups) {
        groups.everyone.get("/signin", use: signInPage)
        groups.everyone.post("/signin", use: signIn)
        groups.member.post("/signout", use: signOut)
        groups.member.post("/signout/everywhere", use: signOutEverywhere)
        groups.everyone.get("/setup", use: setupPage)
        groups.everyone.post("/setup", use: setup)
        groups.everyone.get("/join", use: joinPage)
        groups.everyone.post("/join", use: join)
    }

    // MARK: Sign in and out

    @Sendable func signInPage(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let next = SignInLink.safeNext(request.uri.queryParameters.get("next"))
        return renderer.page(SignInPage(next: next, form: FormState(), canJoin: try await openSignUp()), "signin")
    }

    @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: SignInForm.self, context: context)
        let next = SignInLink.safeNext(form.next)
        // The handle exactly as sign-in reads it, so "ada" and "ada\n" are one key.
        let handle = (try? Handle.parse(form.handle).get().value) ?? (form.handle ?? "").lowercased()
        let found = try await accounts.player(handle: form.handle ?? "")
        // A new password (a reset) starts the counts over.
        let stamp = String(found?.passwordHash?.suffix(22) ?? "")
        let address = TrustedProxies.limitKey(context.clientAddress)
        let delay: Double
        switch await throttle.attempt(handle: handle, stamp: stamp, address: address) {
        case .refuse(let wait):
            var state = FormState(values: ["handle": form.handle ?? ""])
            state.message = "Too many failed sign-ins from here. Try again in \(Self.minutes(wait))."
            var response = try renderer.page(SignInPage(next: next, form: state, canJoin: false), "signin", status: .tooManyRequests).response(
                from: request, context: context)
            response.headers[.retryAfter] = String(wait)
            return response
        case .proceed(let delayOnFailure):
            delay = delayOnFailure
        }
        let verified: Player?
        do {
            verified = try await accounts.verify(found, password: form.password ?? "")
        } catch let busy as PasswordWork.Busy {
            // Not checked, so not a failure: a flood that fills the line must not lock anyone out.
            await throttle.withdraw(handle: handle, stamp: stamp, address: address)
            throw busy
        }
        guard let player = verified else {
            // A handle guessed at from many places answers its wrong passwords ever more slowly.
            if delay > 0 { try await Task.sleep(for: .milliseconds(Int(delay * 1000))) }
            var state = FormState(values: ["handle": form.handle ?? ""])
            // The same words whether the handle exists or not.
            state.message = "That handle and password do not match an account."
            return try renderer.page(SignInPage(next: next, form: state, canJoin: try await openSignUp()), "signin", status: .unauthorized)
                .response(from: request, context: context)
        }
        await throttle.succeeded(handle: handle, stamp: stamp, address: address)
        try await begin(player, context: context)
        return .redirect(to: next, type: .normal)
    }

    /// A new session (a new id: a session fixed before sign-in is never reused).
    private func begin(_ player: Player, context: AppRequestContext) async throws {
        context.sessions.createSession(UserSession(playerID: player.id), expiresIn: sessionLifetime)
        try await stores.operational.noteSignIn(player.id)
    }

    @Sendable func signOut(_ request: Request, context: AppRequestContext) async throws -> Response {
        context.sessions.clearSession()
        return .redirect(to: "/", type: .normal)
    }

    @Sendable func signOutEverywhere(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let identity = context.identity {
            try await accounts.credentials.endSessions(of: identity.playerID)
        }
        context.sessions.clearSession()
        return .redirect(to: "/signin", type: .normal)
    }

    // MARK: First admin

    @Sendable func setupPage(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let token = request.uri.queryParameters.get("token") ?? ""
        try await checkSetupLink(token)
        return renderer.page(SetupPage(token: token, form: FormState()), "setup")
    }

    @Sendable func setup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: AccountForm.self, context: context)
        let token = form.token ?? ""
        try await checkSetupLink(token)
        do {
            try Self.check(form)
            // Used up before the account is made: of two requests with one link, one wins.
            guard try await stores.operational.consumeLink(token, kind: .setup) != nil else { throw Self.invalidLink("setup") }
            let admin = try await accounts.createUser(displayName: form.displayName, handle: form.handle, role: .admin, password: form.password)
            try await begin(admin, context: context)
            return .redirect(to: "/admin", type: .normal)
        } catch let errors as FieldErrors {
            return try renderer.page(
                SetupPage(token: token, form: FormState(values: form.values, errors: errors)), "setup", status: .unprocessableContent
            )
            .response(from: request, context: context)
        }
    }

    // MARK: Joining

    @Sendable func joinPage(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let invite = request.uri.queryParameters.get("invite") ?? ""
        return renderer.page(try await joinPage(invite: invite, form: FormState()), "join")
    }

    @Sendable func join(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decode(as: AccountForm.self, context: context)
        let invite = form.invite ?? ""
        let page = try await joinPage(invite: invite, form: FormState(values: form.values))
        do {
            let link = invite.isEmpty ? nil : try await stores.operational.link(invite, kind: .invite)
            if let link, let claimed = link.playerID {
                _ = try PasswordRules.validate(form.password)
                // A profile someone already signs in with, or one that outranks the invite,
                // cannot be claimed: that would take over an account or raise a role.
                guard let profile = try await stores.domain.player(claimed), profile.isClaimable(through: link.role),
                    try await stores.operational.consumeLink(invite, kind: .invite) != nil
                else { throw Self.invalidLink("invite") }
                try await stores.operational.voidInvites(for: profile.id)
                let player = try await stores.domain.setPassword(
                    of: profile.id, hash: try await accounts.hash(form.password ?? ""), actor: link.createdBy)
                try await begin(player, context: context)
                return .redirect(to: try await landing(for: player), type: .normal)
            } else {
                try Self.check(form)
                // An open sign-up costs a bcrypt hash: one address (an IPv6 /64) may not make
                // them without end. (An invite is used once: it bounds itself.)
                if invite.isEmpty, let wait = await throttle.join(from: TrustedProxies.limitKey(context.clientAddress)) {
                    var page = page
                    page.form = FormState(values: form.values)
                    page.form.message = "Too many sign-ups from here. Try again in \(Self.minutes(wait))."
                    var response = try renderer.page(page, "join", status: .tooManyRequests).response(from: request, context: context)
                    response.headers[.retryAfter] = String(wait)
                    return response
                }
                if invite.isEmpty, form.notMe == nil, let profile = try await lookalike(of: form.displayName) {
                    // Someone the club already listed, signing up on their own: their scores are
                    // on that profile, which only an invite may claim (a name proves nothing).
                    var page = page
                    page.form = FormState(values: form.values)
                    page.lookalike = profile.displayName
                    return try renderer.page(page, "join", status: .conflict).response(from: request, context: context)
                }
                if !invite.isEmpty {
                    guard try await stores.operational.consumeLink(invite, kind: .invite) != nil else { throw Self.invalidLink("invite") }
                }
                let player = try await accounts.createUser(
                    displayName: form.displayName, handle: form.handle, role: link?.role ?? .athlete, password: form.password)
                try await begin(player, context: context)
                return .redirect(to: try await landing(for: player), type: .normal)
            }
        } catch let errors as FieldErrors {
            var page = page
            page.form = FormState(values: form.values, errors: errors)
            return try renderer.page(page, "join", status: .unprocessableContent).response(from: request, context: context)
        }
    }

    /// The join form for an invite, or for open sign-up; refused when neither applies.
    private func joinPage(invite: String, form: FormState) async throws -> JoinPage {
        if invite.isEmpty {
            guard try await openSignUp() else {
                throw Problem(
                    status: .forbidden, title: "Invite needed",
                    detail: "This club signs people up by invite. Ask a coach or an admin for an invite link.")
            }
            return JoinPage(invite: "", role: Role.athlete.rawValue, form: form)
        }
        guard let link = try await stores.operational.link(invite, kind: .invite) else { throw Self.invalidLink("invite") }
        var page = JoinPage(invite: invite, role: link.role.rawValue, form: form)
        if let playerID = link.playerID, let player = try await stores.domain.player(playerID) {
            page.title = "Claim your profile"
            page.claimName = player.displayName
            page.claimHandle = player.handle.value
        }
        return page
    }

    /// Where a new account goes first: the night whose check-in is open (they came to play),
    /// else their own page, never the director's set-up home.
    private func landing(for player: Player) async throws -> String {
        if let night = try await stores.domain.tvLeague().openNights.first {
            return "/events/\(Format.id(night.event.id))#check-in-heading"
        }
        return "/players/\(Format.id(player.id))"
    }

    /// An imported player nobody signs in as whose name is the one typed (case and spacing aside).
    private func lookalike(of name: String?) async throws -> Player? {
        func folded(_ text: String) -> String {
            text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
        }
        let typed = folded(name ?? "")
        guard !typed.isEmpty else { return nil }
        return try await stores.domain.players().first { folded($0.displayName) == typed && $0.isClaimable(through: .athlete) }
    }

    private func openSignUp() async throws -> Bool {
        try await stores.domain.clubSettings().allowsOpenSignUp
    }

    /// Name, handle and password together, before a link is used up.
    static func check(_ form: AccountForm) throws(FieldErrors) {
        _ = try AccountDraft(displayName: form.displayName, handle: form.handle, password: form.password).validated()
    }

    /// A setup link makes the first admin only: once the club has one (made here, or arrived
    /// from the cloud after the link was issued), it opens nothing.
    private func checkSetupLink(_ token: String) async throws {
        guard try await stores.operational.link(token, kind: .setup) != nil else { throw Self.invalidLink("setup") }
        guard try await !stores.domain.hasEnabledAdmin() else {
            throw Problem(
                status: .forbidden, title: "Link not valid", detail: "This club already has an admin: sign in, or ask an admin for an invite.")
        }
    }

    static func invalidLink(_ kind: String) -> Problem {
        Problem(
            status: .forbidden, title: "Link not valid",
            detail: "This \(kind) link has been used, has expired or was never issued. Ask for a new one.")
    }

    static func minutes(_ seconds: Int) -> String {
        seconds < 90 ? "\(seconds) seconds" : "\((seconds + 59) / 60) minutes"
    }
}
