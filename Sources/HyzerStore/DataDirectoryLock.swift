import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a data directory, held by the server for as long as it runs: two
/// servers never share one directory, and a command that must not run beside the server
/// (an offline restore) can tell that it is running. The kernel drops the lock when the
/// process ends, however it ends.
public final class DataDirectoryLock: Sendable {
    private let descriptor: Int32

    public static let fileName = "server.lock"

    /// Takes the lock, or returns nil when another process holds it.
    public static func acquire(_ directory: URL) throws -> DataDirectoryLock? {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(fileName).path
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return DataDirectoryLock(descriptor: descriptor)
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
