import Foundation
import HTTPTypes

#if canImport(Glibc)
    import Glibc
#endif

/// Who a request comes from, for the sign-in throttle and the live streams' share per client.
///
/// The peer's own address, unless the peer is a proxy the operator named
/// (`--trusted-proxies`): then the nearest address in `X-Forwarded-For` that is not one of
/// those proxies. Read right to left, since each proxy appends the address it saw: what a
/// client writes into the header itself sits further left and is never reached while a
/// trusted proxy stands in front. With no proxies named, the header is ignored.
public struct TrustedProxies: Sendable, Equatable {
    struct Network: Sendable, Equatable {
        var bytes: [UInt8]
        var prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefix
            for (a, b) in zip(address, bytes) where left > 0 {
                let bits = min(8, left)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if a & mask != b & mask { return false }
                left -= bits
            }
            return true
        }
    }

    static let none = TrustedProxies(networks: [])
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    let networks: [Network]

    init(networks: [Network]) {
        self.networks = networks
    }

    /// Addresses and networks, e.g. `127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`.
    public init(parsing specs: [String]) throws {
        networks = try specs.map { raw in
            let spec = raw.trimmingCharacters(in: .whitespaces)
            let parts = spec.split(separator: "/", maxSplits: 1).map(String.init)
            guard let first = parts.first, let bytes = Self.bytes(of: first) else { throw InvalidProxy(spec: spec) }
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let prefix, (0...(bytes.count * 8)).contains(prefix) else { throw InvalidProxy(spec: spec) }
            return Network(bytes: bytes, prefix: prefix)
        }
    }

    public struct InvalidProxy: Error, CustomStringConvertible {
        var spec: String
        public var description: String { "\"\(spec)\" is not an IP address or network (such as 10.0.0.0/8 or ::1)" }
    }

    var isEmpty: Bool { networks.isEmpty }

    func trusts(_ bytes: [UInt8]) -> Bool {
        networks.contains { $0.contains(bytes) }
    }

    /// The client's address: `peer` as the socket saw it, `forwarded` the request's
    /// `X-Forwarded-For` values in order.
    func client(peer: String, forwarded: [String]) -> String {
        guard !networks.isEmpty, let peerBytes = Self.bytes(of: peer), trusts(peerBytes) else { return peer }
        let hops = forwarded.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        var client = peer
        for hop in hops.reversed() {
            guard let bytes = Self.bytes(of: hop) else { break }
            client = Self.text(of: bytes)
            if !trusts(bytes) { break }
        }
        return client
    }

    func client(peer: String, fields: HTTPFields) -> String {
        guard !networks.isEmpty else { return peer }
        return client(peer: peer, forwarded: fields[values: Self.forwardedFor])
    }

    /// What limits per client count by: an IPv4 address, or an IPv6 address's /64 (one
    /// subscriber's network: its other 2^64 addresses are not other clients).
    static func limitKey(_ address: String) -> String {
        guard var bytes = bytes(of: address) else { return address }
        guard bytes.count == 16 else { return text(of: bytes) }
        for index in 8..<16 { bytes[index] = 0 }
        return text(of: bytes) + "/64"
    }

    /// IPv4 as 4 bytes, IPv6 as 16; an IPv4 address mapped into IPv6 (`::ffff:a.b.c.d`, as a
    /// dual-stack socket reports it) as its 4.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            if bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes.suffix(4)) }
            return bytes
        }
        return nil
    }

    static func text(of bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
