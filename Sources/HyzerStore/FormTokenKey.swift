import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Signs the form tokens that guard every page form against cross-site forgery.
///
/// A token is a random nonce and an HMAC of it with the sign-in it belongs to (the session
/// cookie, or none): a cookie planted by someone else fails its signature, and a token from
/// before a sign-in or sign-out fails for the session after it. The key never leaves this
/// machine: `form-key` beside the stores (owner-only), made on first start, not in backups.
public struct FormTokenKey: Sendable {
    static let fileName = "form-key"
    private let key: SymmetricKey

    public init(bytes: some ContiguousBytes) {
        key = SymmetricKey(data: bytes)
    }

    /// The key kept in `directory`, made there first if missing or unreadable.
    public static func kept(in directory: URL) throws -> FormTokenKey {
        let file = directory.appendingPathComponent(fileName)
        // quiet: a key that cannot be read is replaced (documented above); forms open in a
        // browser then ask once again, nothing else is lost.
        if let data = try? Data(contentsOf: file), data.count == 32 { return FormTokenKey(bytes: data) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let data = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let partial = directory.appendingPathComponent(fileName + ".new")
        guard FileManager.default.createFile(atPath: partial.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial.path])
        }
        // rename(2) puts it in place whole, over an unreadable one if there was one.
        guard rename(partial.path, file.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        return FormTokenKey(bytes: data)
    }

    /// A new token for `binding` (the session cookie's value, or "" when there is none).
    public func issue(binding: String) -> String {
        let nonce = SymmetricKey(size: .bits128).withUnsafeBytes { Secret.base64URL($0) }
        return issue(binding: binding, nonce: nonce)
    }

    func issue(binding: String, nonce: String) -> String {
        nonce + "." + signature(nonce, binding)
    }

    /// Whether `token` was issued here, for this binding.
    public func isValid(_ token: String, binding: String) -> Bool {
        // A nonce of 22 bytes, a dot, a signature of 43 (base64url, which has no dots: a sent
        // one that has is refused by the comparison). Read by bytes, not split by `Character`.
        let bytes = token.utf8
        guard bytes.count == 66, let dot = bytes.firstIndex(of: UInt8(ascii: ".")), bytes.distance(from: bytes.startIndex, to: dot) == 22 else {
            return false
        }
        let expected = signature(String(token[..<dot]), binding)
        // Constant time: how much of a forged signature matched must not show.
        return zip(expected.utf8, bytes[bytes.index(after: dot)...]).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func signature(_ nonce: String, _ binding: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("hyzer-form\u{0}\(nonce)\u{0}\(binding)".utf8), using: key)
        return mac.withUnsafeBytes { Secret.base64URL($0) }
    }
}
