import Foundation

/// Says in a data folder that its server runs as an instance of a cluster, and of which one
/// (the cluster's id, derived from its secret by a slow KDF, never the secret): `hyzer admin token` and
/// `reset-password` on that folder then refuse to act on this instance alone, where a token
/// would open nothing and a reset would leave the old sessions standing elsewhere.
public enum ClusterMarker {
    static let fileName = "cluster-id"

    public static func read(in directory: URL) -> String? {
        (try? String(contentsOf: directory.appendingPathComponent(fileName), encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Marks the folder (`id`), or unmarks it (nil) when the server runs on its own.
    public static func keep(_ id: String?, in directory: URL) throws {
        let file = directory.appendingPathComponent(fileName)
        guard let id else {
            if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
            return
        }
        guard read(in: directory) != id else { return }
        try Data((id + "\n").utf8).write(to: file, options: .atomic)
    }
}
