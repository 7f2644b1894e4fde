import Crypto
import CryptoExtras
import Foundation
import HyzerStore

/// Every key and name a cluster derives from its secret. They all come from one scrypt
/// stretch of it (about 32 MB and a tenth of a second, once per process), so whatever an
/// outsider can see — a form token any visitor is handed, or a copy of the database with its
/// cluster ids, credential digests and sealed password hashes — costs that much per guess of
/// the secret, not one HMAC.
public struct ClusterKeys: Sendable {
    /// Names the cluster's rows and notifications in the database, and its instances' folders.
    public let clusterID: String
    /// The id earlier versions derived directly from the secret (one HMAC): rows and folders
    /// still named by it belong to this cluster and are renamed.
    public let legacyClusterID: String
    /// Signs form tokens on every instance.
    public let formKey: FormTokenKey
    /// Seals password hashes in the player records the instances exchange (`PasswordSeal`).
    let sealKey: SymmetricKey
    /// Credential digests: a session's or token's earlier digest (`legacyDigestKey`), keyed
    /// again with this, so rows written before can be rewritten without their secrets.
    let digestKey: SymmetricKey
    let legacyDigestKey: SymmetricKey

    /// The stretch's cost. Changing it renames the cluster (its sessions and tokens with it).
    static let scryptRounds = 1 << 15
    static let scryptBlockSize = 8
    static let salt = Data("hyzer-cluster-secret-v2".utf8)

    public init(secret: String) throws {
        let master = try KDF.Scrypt.deriveKey(
            from: Data(secret.utf8), salt: Self.salt, outputByteCount: 32, rounds: Self.scryptRounds, blockSize: Self.scryptBlockSize,
            parallelism: 1)
        func derived(_ purpose: String) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data(purpose.utf8), outputByteCount: 32)
        }
        clusterID = derived("hyzer-cluster-id").withUnsafeBytes { bytes in bytes.prefix(8).map { String(format: "%02x", $0) }.joined() }
        formKey = derived("hyzer-form-key").withUnsafeBytes { FormTokenKey(bytes: Data($0)) }
        sealKey = derived("hyzer-password-seal")
        digestKey = derived("hyzer-credential-digest")
        let plain = SymmetricKey(data: Data(secret.utf8))
        legacyClusterID = HMAC<SHA256>.authenticationCode(for: Data("hyzer-cluster".utf8), using: plain).prefix(8)
            .map { String(format: "%02x", $0) }.joined()
        legacyDigestKey = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data("hyzer-credentials".utf8), using: plain)))
    }

    /// The digest under which a session or token is stored.
    func digest(_ credential: String) -> String {
        rekeyed(Self.hex(HMAC<SHA256>.authenticationCode(for: Data(credential.utf8), using: legacyDigestKey)))
    }

    /// A digest stored by an earlier version, as this one stores it.
    func rekeyed(_ legacyDigest: String) -> String {
        Self.hex(HMAC<SHA256>.authenticationCode(for: Data(legacyDigest.utf8), using: digestKey))
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Whether a folder marked with `id` belongs to this cluster.
    public func names(_ id: String) -> Bool {
        id == clusterID || id == legacyClusterID
    }
}
