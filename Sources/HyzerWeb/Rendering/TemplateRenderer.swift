import Foundation
import Hummingbird
import Mustache

/// The Mustache templates of `Templates/`, loaded once at start-up. A missing template is
/// a start-up failure, never a blank page later.
public struct TemplateRenderer: Sendable {
    let library: MustacheLibrary

    static let required = [
        "layout", "leaderboard", "home", "round", "leaderboard-page", "course-new", "player-new",
        "round-new", "score-correct", "not-found", "error", "scorecard", "tv", "tv-boards", "sync", "sync-status",
    ]

    public init(directory: URL) async throws {
        guard FileManager.default.fileExists(atPath: directory.path) else {
            throw StartupError("Templates folder not found at \(directory.path). Run Hyzer from the repository folder or set HYZER_RESOURCES.")
        }
        library = try await MustacheLibrary(directory: directory.path)
        for name in Self.required where library.getTemplate(named: name) == nil {
            throw StartupError("Template \(name).mustache is missing from \(directory.path).")
        }
    }

    func render(_ context: Any, _ template: String) -> String {
        // Every name passed here is in `required`, checked at start-up.
        library.render(context, withTemplate: template) ?? ""
    }

    func page(_ context: Any, _ template: String, status: HTTPResponse.Status = .ok) -> HTML {
        HTML(render(context, template), status: status)
    }
}

public struct StartupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A rendered page.
struct HTML: ResponseGenerator {
    let body: String
    let status: HTTPResponse.Status

    init(_ body: String, status: HTTPResponse.Status = .ok) {
        self.body = body
        self.status = status
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }
}
