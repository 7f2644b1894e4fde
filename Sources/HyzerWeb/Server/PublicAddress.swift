import Foundation
import Hummingbird
import HyzerStore

/// Where the address links start with comes from: `--public-url` when given (it wins, and
/// /admin says so), else the one set on /admin (a club setting, the same on every device),
/// else the address each request came to.
struct PublicAddressSource: Sendable {
    /// `--public-url`.
    let configured: String?
    let store: DomainStore

    /// The configured or set address, if any.
    func current() async throws -> String? {
        if let configured { return configured }
        return try await store.clubSettings().publicAddress
    }

    func base(_ request: Request) async throws -> String {
        PublicAddress.base(try await current(), request)
    }
}

/// The address people reach the server at, which invite and setup links start with.
public enum PublicAddress {
    /// Where links this server hands out point: the configured public address, or the one
    /// the request came to.
    static func base(_ publicURL: String?, _ request: Request) -> String {
        publicURL ?? "http://\(request.head.authority ?? "localhost")"
    }

    /// `http(s)://host[:port]` without a trailing slash, or nil when it is not one.
    public static func parse(_ text: String) -> String? {
        var text = text.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil,
            url.port.map({ (1...65535).contains($0) }) ?? true
        else { return nil }
        return text
    }

    /// True for an address only this machine can open (127.x, ::1, localhost): a phone
    /// given such a link cannot follow it.
    public static func isLoopback(_ base: String) -> Bool {
        guard let host = URL(string: base)?.host?.lowercased() else { return true }
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bare == "localhost" || bare.hasSuffix(".localhost") || bare.hasPrefix("127.") || bare == "::1" || bare == "0.0.0.0"
    }
}
