import Foundation

/// Says in a data folder that its server runs as an instance of a cluster, and of which one
/// (the cluster's id, derived from its secret by a slow KDF, never the secret): `hyzer admin token` and
/// `reset-password` on that folder then refuse to act on this instance alone, where a token
/// would open nothing and a reset would leave the old sessions standing elsewhere.
public enum ClusterMarker {
    static let fileName = "cluster-id"

    /// The cluster's id, nil when the folder is not marked. A marker that cannot be read
    /// throws: taken as "not in a cluster", a token or reset would act on this instance alone,
    /// the very case the marker exists to refuse.
    public static func read(in directory: URL) throws -> String? {
        let file = directory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do {
            return try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw StoreError.damaged("\(file.path) says this folder belongs to a cluster but cannot be read (\(error)); fix or remove it")
        }
    }

    /// Marks the folder (`id`), or unmarks it (nil) when the server runs on its own.
    public static func keep(_ id: String?, in directory: URL) throws {
        let file = directory.appendingPathComponent(fileName)
        guard let id else {
            if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
            return
        }
        guard (try? read(in: directory)) != id else { return }  // quiet: an unreadable marker is written again here
        try Data((id + "\n").utf8).write(to: file, options: .atomic)
    }
}
