import Foundation
import Hummingbird

/// What makes the site an installable app on a phone: the web app manifest, named after
/// the club. The service worker itself is a file of `Public/` (`/sw.js`, scope `/`).
struct AppShellController {
    func addRoutes(to groups: RouteGroups) {
        groups.everyone.get("/manifest.webmanifest", use: manifest)
    }

    struct Manifest: Encodable {
        struct Icon: Encodable {
            var src: String
            var sizes: String
            var type: String
            var purpose: String
        }

        var name: String
        var shortName: String
        var description = "Live disc golf scoring: score your card, even with no signal."
        var startURL = "/"
        var scope = "/"
        var display = "standalone"
        var backgroundColor = "#ffffff"
        var themeColor = "#1f6f4a"
        var icons = [
            Icon(src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any"),
            Icon(src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any"),
            Icon(src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any"),
        ]

        enum CodingKeys: String, CodingKey {
            case name, description, scope, display, icons
            case shortName = "short_name", startURL = "start_url", backgroundColor = "background_color", themeColor = "theme_color"
        }
    }

    @Sendable func manifest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let club = context.clubName
        let body = Manifest(name: club.isEmpty ? "Hyzer" : "\(club) · Hyzer", shortName: club.isEmpty ? "Hyzer" : String(club.prefix(12)))
        return Response(
            status: .ok, headers: [.contentType: "application/manifest+json", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONCoding.encoder.encode(body))))
    }
}
