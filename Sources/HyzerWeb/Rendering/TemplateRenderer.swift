import Foundation
import Hummingbird
import HyzerCore
import HyzerStore
import Mustache

/// The Mustache templates of `Templates/`, loaded once at start-up. A missing template is
/// a start-up failure, never a blank page later.
public struct TemplateRenderer: Sendable {
    let library: MustacheLibrary
    /// Pages rendered once per change (see `PageCache`).
    let cache: PageCache

    static let required = [
        "layout", "leaderboard", "home", "round", "leaderboard-page", "course-new", "player-new",
        "round-new", "score-correct", "not-found", "error", "scorecard", "tv", "tv-boards", "sync", "sync-status",
        "signin", "setup", "join", "invites", "admin", "restoring", "restore-confirm", "remove-confirm",
        "leaderboard-table", "card", "event", "event-new", "cards-edit", "season", "season-new",
        "season-table", "player", "quarantine-table", "tags", "tags-new", "tag-round",
    ]

    /// `signedInLane`: whether signed-in viewers' kept pages may be answered ahead of the
    /// router (`KeptPageLane`): not in a cluster.
    public init(directory: URL, signedInLane: Bool = true) async throws {
        cache = PageCache(lane: KeptPageLane(signedIn: signedInLane))
        guard FileManager.default.fileExists(atPath: directory.path) else {
            throw StartupError("Templates folder not found at \(directory.path). Run Hyzer from the repository folder or set HYZER_RESOURCES.")
        }
        library = try Self.load(directory)
        for name in Self.required where library.getTemplate(named: name) == nil {
            throw StartupError("Template \(name).mustache is missing from \(directory.path).")
        }
    }

    /// Every `*.mustache` of `directory`, named without the extension, each parsed to escape
    /// as `HTMLEscaping` does: its content type's pragma on a line of its own in front, which
    /// the parser drops with that line.
    static func load(_ directory: URL) throws -> MustacheLibrary {
        HTMLEscaping.register()
        var library = MustacheLibrary()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".mustache") }
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            do {
                library.register(try MustacheTemplate(string: HTMLEscaping.pragma + "\n" + text), named: String(file.dropLast(".mustache".count)))
            } catch {
                throw StartupError("Template \(file) in \(directory.path) cannot be read: \(error)")
            }
        }
        return library
    }

    func render(_ context: Any, _ template: String) -> String {
        // Every name passed here is in `required`, checked at start-up.
        library.render(context, withTemplate: template) ?? ""
    }

    func page(_ page: some Sendable, _ template: String, status: HTTPResponse.Status = .ok) -> HTML {
        HTML(status: status) { chrome in self.render(PageEnvelope(page: page, chrome: chrome), template) }
    }

    /// A page served from its cached render while the store has not changed; `render` reads
    /// what it shows and makes it on a miss (see `PageCache`).
    func cachedPage(
        _ request: Request, _ context: AppRequestContext, store: DomainStore, page: CachedPage,
        render: () async throws -> PageCache.Render
    ) async throws -> Response {
        try await cache.serve(request, context: context, store: store, page: page, render: render)
    }
}

public struct StartupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// What every page shows besides its own content: who is signed in (for the menu) and the
/// token each form carries. Taken from the request context when the page is rendered.
struct PageChrome: Sendable {
    struct Viewer: Sendable {
        var playerID: String
        var handle: String
        var displayName: String
        var role: String
        var isCoach: Bool
        var isAdmin: Bool
    }

    /// The form token, fixed (a kept render's), or the request's own (`token`), taken only
    /// when a template writes it: only then is it handed out as a cookie to a reader who has
    /// none (see `CSRFTokenMiddleware`).
    var csrf: String
    var token: FormToken?
    var viewer: Viewer?
    var clubName: String
    /// What the last action did ("Saved."), from the redirect's `notice`: a fixed text.
    var notice: String?

    init(csrf: String = "", token: FormToken? = nil, identity: Identity? = nil, clubName: String = "", notice: String? = nil) {
        self.csrf = csrf
        self.token = token
        self.clubName = clubName
        self.notice = notice
        viewer = identity.map {
            Viewer(
                playerID: Format.id($0.playerID), handle: $0.handle, displayName: $0.displayName, role: $0.role.rawValue,
                isCoach: $0.role.includes(.coach), isAdmin: $0.role == .admin)
        }
    }
}

/// A page's own values plus `csrf` and `viewer`, visible from every section of its template.
struct PageEnvelope: MustacheParent {
    let page: Any
    let chrome: PageChrome

    func child(named name: String) -> Any? {
        switch name {
        case "csrf": return chrome.token?.written() ?? chrome.csrf
        case "viewer": return chrome.viewer
        case "clubName": return chrome.clubName
        case "notice": return chrome.notice
        default:
            guard let value = Mirror(reflecting: page).children.first(where: { $0.label == name })?.value else { return nil }
            let optional = Mirror(reflecting: value)
            guard optional.displayStyle == .optional else { return value }
            return optional.children.first?.value
        }
    }
}

/// A rendered page, rendered when the response is made, so it sees the request's identity
/// and form token.
struct HTML: ResponseGenerator {
    let status: HTTPResponse.Status
    let render: @Sendable (PageChrome) -> String

    init(status: HTTPResponse.Status = .ok, render: @escaping @Sendable (PageChrome) -> String) {
        self.status = status
        self.render = render
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let chrome =
            (context as? AppRequestContext).map {
                PageChrome(
                    token: $0.formToken, identity: $0.identity, clubName: $0.clubName, notice: Notice.text(of: request))
            } ?? PageChrome()
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: render(chrome)))
        )
    }
}
