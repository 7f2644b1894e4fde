import Foundation
import Hummingbird
import NIOCore

/// `GET /api/v1/openapi.json`: the API's contract, read once at start from
/// `<resources>/OpenAPI/openapi.json`. A test checks it against the router's routes.
struct OpenAPIController {
    let document: ByteBuffer

    init(resourcesDirectory: URL) throws {
        document = ByteBuffer(bytes: try Data(contentsOf: resourcesDirectory.appendingPathComponent("OpenAPI/openapi.json")))
    }

    func addRoutes(to api: RouteGroups) {
        api.everyone.get("/openapi.json") { [document] _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "max-age=300"], body: .init(byteBuffer: document))
        }
    }
}
