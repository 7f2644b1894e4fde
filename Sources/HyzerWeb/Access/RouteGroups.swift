import Hummingbird
import HyzerCore

/// The routes of each audience, every group carrying the middleware that enforces its rule.
/// Controllers add each route to the group it belongs to; there is no route outside them.
struct RouteGroups {
    let everyone: RouterGroup<AppRequestContext>
    let viewer: RouterGroup<AppRequestContext>
    let member: RouterGroup<AppRequestContext>
    let scorer: RouterGroup<AppRequestContext>
    let coach: RouterGroup<AppRequestContext>
    let admin: RouterGroup<AppRequestContext>

    init(_ parent: some RouterMethods<AppRequestContext>, style: AccessMiddleware.Style, rules: AccessRules) {
        func group(_ audience: Audience) -> RouterGroup<AppRequestContext> {
            let group = parent.group().add(middleware: AccessMiddleware(audience: audience, style: style, rules: rules))
            // Page forms carry a token; the API's guard is `APIGuardMiddleware` on its group.
            return style == .page ? group.add(middleware: CSRFCheckMiddleware()) : group
        }
        everyone = group(.everyone)
        viewer = group(.viewer)
        member = group(.member)
        scorer = group(.scorer)
        coach = group(.coach)
        admin = group(.admin)
    }
}
