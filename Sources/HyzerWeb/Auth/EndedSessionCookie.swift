import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth

/// Makes an ended session's cookie go at once. The session storage ends a session with a
/// cookie that `Expires` at the current second, which a browser keeps sending until that
/// second is over: a page loaded in it (the redirect after signing out) was asked for with the
/// dead session and handed out a form token bound to it, and the sign-in form after it was
/// refused as expired. `Max-Age=0` takes precedence over `Expires` (RFC 6265, 5.3) and means
/// gone now.
struct EndedSessionCookieMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        let prefix = UserSession.cookieName + "="
        var cookies = response.headers[values: .setCookie]
        guard let index = cookies.firstIndex(where: { $0.hasPrefix(prefix) }), Self.endsNow(cookies[index]) else { return response }
        cookies[index] += "; Max-Age=0"
        response.headers[values: .setCookie] = cookies
        return response
    }

    static func endsNow(_ setCookie: String) -> Bool {
        setCookie.split(separator: ";").contains { part in
            let attribute = part.trimmingCharacters(in: .whitespaces).lowercased()
            guard attribute.hasPrefix("expires="), let date = httpDate.date(from: String(attribute.dropFirst("expires=".count))) else {
                return false
            }
            return date.timeIntervalSinceNow <= 1
        }
    }

    /// `Expires` as cookies write it (RFC 7231's IMF-fixdate).
    private static let httpDate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }()
}
