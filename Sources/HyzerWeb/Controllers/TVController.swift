import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// The TV screen. Its stream, `/tv/events`, is served by `EventStreamHandler`.
struct TVController {
    let stores: Stores
    let renderer: TemplateRenderer
    let publicAddress: PublicAddressSource

    func addRoutes(to groups: RouteGroups) {
        groups.viewer.get("/tv", use: tv)
    }

    /// The wall display. `?round=ID` pins one round, `?season=ID` one season's table;
    /// `?page=N` overrides the club setting for the seconds each page of a long board (and
    /// each round) stays up.
    @Sendable func tv(_ request: Request, context: AppRequestContext) async throws -> Response {
        // A round or season that is not there pins nothing (and makes no cache key of its own).
        var pinnedID = request.uri.queryParameters.get("round").flatMap(UUID.init(text:))
        if let asked = pinnedID, try await !stores.domain.roundExists(asked) { pinnedID = nil }
        if pinnedID == nil, let season = request.uri.queryParameters.get("season").flatMap(UUID.init(text:)),
            try await stores.domain.seasons().contains(where: { $0.id == season })
        {
            pinnedID = season
        }
        let pinned = pinnedID.map(Format.id) ?? ""
        let chosen = request.uri.queryParameters.get("page").flatMap(Int.init).map { min(max($0, 3), 600) }
        return try await renderer.cachedPage(request, context, store: stores.domain, page: .tv(pinned: pinnedID, pageSeconds: chosen)) {
            let screen = try await TVScreen.read(stores.domain, publicURL: try await publicAddress.current())
            let seconds = if let chosen { chosen } else { try await stores.domain.clubSettings().tvPageSeconds.value }
            return .init(html: renderer.page(TVPage(boards: screen, pinnedRound: pinned, pageSeconds: seconds), "tv"), version: nil)
        }
    }
}
