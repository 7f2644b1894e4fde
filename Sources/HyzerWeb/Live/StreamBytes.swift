import NIOCore
import Synchronization

/// Bytes sent on streams, and the same as a gzip stream piece, made on first use and then
/// shared by every stream that takes gzip.
final class StreamBytes: Sendable {
    let plain: ByteBuffer
    private let piece = Mutex<ByteBuffer?>(nil)

    init(_ plain: ByteBuffer) { self.plain = plain }

    /// Nil when zlib failed; the next call tries again.
    var gzipPiece: ByteBuffer? {
        if let made = piece.withLock({ $0 }) { return made }
        // Compressed outside the lock, so no other event loop waits on it (two loops may
        // then both compress a frame once).
        guard let made = GzipCoding.streamPiece(plain) else { return nil }
        piece.withLock { if $0 == nil { $0 = made } }
        return made
    }
}

/// Bytes as one event loop sends them: its own copies, since thousands of writes retaining
/// and releasing one storage from every core at once would contend on its reference count.
struct LoopBytes {
    let plain: ByteBuffer
    /// Only when one of the loop's streams takes gzip (nil too if zlib failed).
    let gzip: ByteBuffer?
}

extension StreamBytes {
    func copied(gzip: Bool) -> LoopBytes {
        LoopBytes(plain: ByteBuffer(buffer: plain), gzip: gzip ? gzipPiece.map { ByteBuffer(buffer: $0) } : nil)
    }
}
