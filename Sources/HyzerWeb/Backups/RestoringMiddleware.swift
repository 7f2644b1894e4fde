import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// While a restore replaces the data, every request gets a clear "restoring" answer (503
/// with `Retry-After`), never an error or a half-restored view: a page that reloads itself
/// for browsers, a problem document for the API. Live streams stay open and receive the
/// restored boards when it is done.
struct RestoringMiddleware<Context: RequestContext>: RouterMiddleware {
    let stores: Stores
    let renderer: TemplateRenderer
    static var retryAfterSeconds: Int { 5 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let detail: String
        if let since = stores.restoringSince {
            detail = "Hyzer is restoring a backup (since \(Format.date(since))). This takes a few seconds; try again shortly."
        } else if stores.isRefilling {
            detail = "Hyzer recovered its damaged store and is refilling it from the cloud before it serves. Try again shortly."
        } else {
            return try await next(request, context)
        }
        var response: Response
        if request.uri.path.hasPrefix("/api/") || (request.headers[.accept] ?? "").contains("json") {
            response = try Problem(status: .serviceUnavailable, title: "Restoring", detail: detail, type: "/problems/restoring").response(
                from: request, context: context)
        } else {
            response = try renderer.page(RestoringPage(message: detail, retryAfter: Self.retryAfterSeconds), "restoring", status: .serviceUnavailable)
                .response(from: request, context: context)
        }
        response.headers[.retryAfter] = String(Self.retryAfterSeconds)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

struct RestoringPage: Sendable {
    var title = "Restoring"
    var message: String
    var retryAfter: Int
}
