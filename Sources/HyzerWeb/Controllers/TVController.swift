import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// The TV screen. Its stream, `/tv/events`, is served by `EventStreamHandler`.
struct TVController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to groups: RouteGroups) {
        groups.viewer.get("/tv", use: tv)
    }

    /// The wall display. `?round=ID` pins one round; `?page=N` overrides the club setting for
    /// the seconds each page of a long board (and each round) stays up.
    @Sendable func tv(_ request: Request, context: AppRequestContext) async throws -> Response {
        // A round that is not there pins nothing (and makes no cache key of its own).
        var pinnedID = request.uri.queryParameters.get("round").flatMap(UUID.init(text:))
        if let asked = pinnedID, try await !stores.domain.roundExists(asked) { pinnedID = nil }
        let pinned = pinnedID.map(Format.id) ?? ""
        let chosen = request.uri.queryParameters.get("page").flatMap(Int.init).map { min(max($0, 3), 600) }
        return try await renderer.cachedPage(request, context, store: stores.domain, page: .tv(pinned: pinnedID, pageSeconds: chosen)) {
            let boards = try await stores.domain.activeRoundBoards()
            let seconds = if let chosen { chosen } else { try await stores.domain.clubSettings().tvPageSeconds.value }
            return .init(html: renderer.page(TVPage(boards: TVBoards(boards: boards), pinnedRound: pinned, pageSeconds: seconds), "tv"), version: nil)
        }
    }
}
