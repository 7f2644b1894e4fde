#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat` says of a file that moves with every write to it, by any process: size,
/// modification time and inode (a file made anew). A SQLite database's write-ahead log grows
/// or is rewritten at every commit, so its stamp tells a value read from the database apart
/// from one another process (`hyzer admin` beside the server) may have changed since.
struct FileStamp: Equatable, Sendable {
    var size: Int64
    var seconds: Int
    var nanoseconds: Int
    var inode: UInt64

    /// nil when the file cannot be read: then nothing kept is trusted.
    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        return FileStamp(size: Int64(info.st_size), seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec), inode: UInt64(info.st_ino))
    }
}
