import Hummingbird
import HyzerStore

/// Puts the club's name (kept in memory until the settings change) on the request, for the
/// page header and the TV.
struct ClubNameMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let stores: Stores

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        // The name is decoration: a settings read that fails shows "Hyzer" alone, and the
        // request goes on to whatever it needs the store for (where a failure is answered).
        do {
            context.clubName = try await stores.domain.clubSettings().clubName.value
        } catch {
            context.logger.warning("Could not read the club's name; the page is headed \"Hyzer\"", metadata: ["error": "\(error)"])
        }
        return try await next(request, context)
    }
}
