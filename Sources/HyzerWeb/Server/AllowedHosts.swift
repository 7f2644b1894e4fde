import Foundation
import NIOCore

/// The names this server answers to. A browser sends the name it looked up as `Host`, so a
/// page on another site that rebinds its own name to the club's LAN address (DNS rebinding)
/// arrives with a name that is not on this list and is refused. A bare IP address is always
/// answered: rebinding needs a name.
public struct AllowedHosts: Sendable, Equatable {
    /// Lowercased, without port or trailing dot.
    public let names: Set<String>
    /// `*`: any name (only behind a proxy that checks names itself).
    public var anyName: Bool { names.contains("*") }

    public init(_ names: [String]) {
        self.names = Set(names.map { Self.normalize($0) }.filter { !$0.isEmpty })
    }

    /// The listen address, localhost and this machine's names; when listening on every
    /// interface, also each interface's address.
    public static func defaults(listeningOn host: String) -> AllowedHosts {
        var names = [host, "localhost", "127.0.0.1", "::1"]
        let machine = ProcessInfo.processInfo.hostName
        names.append(machine)
        if let short = machine.split(separator: ".").first { names += [String(short), "\(short).local"] }
        if ["0.0.0.0", "::", ""].contains(host), let devices = try? System.enumerateDevices() {
            names += devices.compactMap { $0.address?.ipAddress }
        }
        return AllowedHosts(names)
    }

    /// A request without `Host` (HTTP/1.0) cannot come from a rebinding browser and is allowed.
    /// A value that is not a host with an optional port (`localhost:evil`, `[::1]x`) is not.
    public func allows(authority: String?) -> Bool {
        guard let authority else { return true }
        guard let host = Self.hostPart(of: authority) else { return false }
        // DNS rebinding needs a name; an address typed by hand (or a new DHCP lease) is fine.
        return anyName || Self.isAddress(host) || names.contains(Self.normalize(host))
    }

    /// An IPv4 dotted quad or an IPv6 literal.
    static func isAddress(_ host: Substring) -> Bool {
        if host.contains(":") { return host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigitCharacter) && (Int(part) ?? 256) <= 255
            }
    }

    /// The host of `host[:port]` or `[v6][:port]`; nil when what follows it is not a port.
    static func hostPart(of authority: String) -> Substring? {
        func isPort(_ text: Substring) -> Bool {
            text.isEmpty || (text.first == ":" && text.count <= 6 && text.dropFirst().allSatisfy(\.isASCIIDigitCharacter))
        }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            guard isPort(authority[authority.index(after: close)...]) else { return nil }
            return authority[authority.index(after: authority.startIndex)..<close]
        }
        let colons = authority.filter { $0 == ":" }.count
        // More than one colon is a bare IPv6 address.
        if colons == 1, let colon = authority.firstIndex(of: ":") {
            guard isPort(authority[colon...]) else { return nil }
            return authority[..<colon]
        }
        return authority[...]
    }

    static func normalize(_ name: some StringProtocol) -> String {
        var name = name.trimmingCharacters(in: .whitespaces).lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        while name.hasSuffix("."), name.count > 1 { name.removeLast() }
        return name
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
