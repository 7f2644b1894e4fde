import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

/// A league night's check-in link and its QR code, shown on the TV and the event page: a
/// coach opens check-in, and `/c/CODE` takes a phone to the night's check-in while it is open
/// and the night is not over.
struct CheckInLinkController {
    let stores: Stores
    let publicAddress: PublicAddressSource

    func addRoutes(to groups: RouteGroups) {
        groups.viewer.get("/c/:code", use: follow)
        groups.viewer.get("/events/:id/checkin.svg", use: code)
        groups.coach.post("/events/:id/checkin-open", use: open)
    }

    @Sendable func follow(_ request: Request, context: AppRequestContext) async throws -> Response {
        let code = context.parameters.get("code") ?? ""
        guard let night = try await stores.domain.checkInNight(code: code) else { throw StoreError.notFound("Check-in link") }
        guard night.open else {
            throw Problem(
                status: .gone, title: "Check-in is closed",
                detail:
                    "This link was for checking in to \(night.event.name), whose check-in is closed. Ask the director, or check in on the night's page."
            )
        }
        return .redirect(to: "/events/\(Format.id(night.event.id))#check-in-heading", type: .normal)
    }

    @Sendable func code(_ request: Request, context: AppRequestContext) async throws -> Response {
        let event = try await stores.domain.eventSnapshot(try context.uuid("id", "Event")).event
        guard !event.archived else { throw StoreError.notFound("Event") }
        let link = "\(try await publicAddress.base(request))/c/\(event.checkInCode)"
        let svg = try QRCode(link).svg
        // The picture names the address this request came to: never shared between readers.
        return Response(
            status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "private, max-age=300"],
            body: .init(byteBuffer: ByteBuffer(string: svg)))
    }

    @Sendable func open(_ request: Request, context: AppRequestContext) async throws -> Response {
        let eventID = try context.uuid("id", "Event")
        let form = try await request.decode(as: CheckInOpenForm.self, context: context)
        _ = try await stores.domain.setCheckIn(open: form.open == "1", at: eventID, actor: context.identity?.playerID)
        return .redirect(to: "/events/\(Format.id(eventID))#check-in-heading", type: .normal)
    }
}
