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
    /// The same as HTTP/1.1 chunks, framed once for all of the loop's streams (see
    /// `EventStreamHandler.send`); nil where a stream frames its own.
    var plainChunk: ByteBuffer? = nil
    var gzipChunk: ByteBuffer? = nil

    /// `bytes` as one chunk of a chunked HTTP/1.1 body: its length in hex, CRLF, the bytes,
    /// CRLF, as NIO's `HTTPResponseEncoder` frames a body part.
    static func chunk(_ bytes: ByteBuffer) -> ByteBuffer {
        var chunk = ByteBuffer()
        chunk.reserveCapacity(bytes.readableBytes + 20)
        chunk.writeString(String(bytes.readableBytes, radix: 16))
        chunk.writeStaticString("\r\n")
        chunk.writeImmutableBuffer(bytes)
        chunk.writeStaticString("\r\n")
        return chunk
    }
}

extension StreamBytes {
    func copied(gzip: Bool) -> LoopBytes {
        let piece = gzip ? gzipPiece : nil
        return LoopBytes(
            plain: ByteBuffer(buffer: plain), gzip: piece.map { ByteBuffer(buffer: $0) }, plainChunk: LoopBytes.chunk(plain),
            gzipChunk: piece.map(LoopBytes.chunk))
    }
}
