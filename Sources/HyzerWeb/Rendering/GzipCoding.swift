import CompressNIO
import NIOCore

/// gzip for pages and for event streams, through zlib (compress-nio).
///
/// A stream is a gzip header followed by pieces, one per frame: each piece is the frame's
/// deflate from a fresh compressor, ended by a sync flush. A piece refers to nothing before
/// it and ends on a byte boundary, so any sequence of pieces after the header is a valid
/// gzip stream. A frame is therefore compressed once for every stream that takes gzip, a
/// slow client can still skip to the newest frame, and a stream costs no zlib state of its
/// own (10,000 zlib streams would be gigabytes). The trailer never comes: a stream ends with
/// its connection.
enum GzipCoding {
    /// Whether `Accept-Encoding` takes gzip: named with a weight above zero, or not named
    /// and `*` is (a gzip the client refuses by name stays refused).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        return HeaderBytes.with(header) { header in
            var named: Bool?
            var any: Bool?
            HeaderBytes.forEach(in: header[...], separatedBy: UInt8(ascii: ",")) { part in
                let semicolon = part.firstIndex(of: UInt8(ascii: ";")) ?? part.endIndex
                let coding = HeaderBytes.trimmed(part[..<semicolon])
                let gzip = HeaderBytes.equals(coding, caseInsensitive: "gzip") || HeaderBytes.equals(coding, caseInsensitive: "x-gzip")
                guard gzip || HeaderBytes.equals(coding, "*") else { return true }
                var q = 1.0
                HeaderBytes.forEach(in: part[semicolon...].dropFirst(), separatedBy: UInt8(ascii: ";")) { parameter in
                    guard parameter.count >= 2, HeaderBytes.equals(parameter.prefix(2), caseInsensitive: "q=") else { return true }
                    q = Double(String(decoding: parameter.dropFirst(2), as: UTF8.self)) ?? 1
                    return false
                }
                if gzip { named = (named ?? false) || q > 0 } else { any = q > 0 }
                return true
            }
            return named ?? any ?? false
        }
    }

    /// A whole page, compressed once and kept by the page cache.
    static func page(_ body: ByteBuffer) -> ByteBuffer? {
        var input = body
        return try? input.compress(with: .gzip, configuration: .init(compressionLevel: .compressionLevel6))
    }

    /// The start of a stream: the gzip header and an empty block, from zlib itself.
    static let streamHeader: ByteBuffer? = {
        guard let compressor = try? ZlibCompressor(algorithm: .gzip) else { return nil }
        // No bytes, in a buffer with storage: zlib is handed its address.
        var nothing = ByteBufferAllocator().buffer(capacity: 16)
        var output = ByteBufferAllocator().buffer(capacity: 64)
        guard (try? compressor.deflate(from: &nothing, to: &output, flush: .sync)) != nil else { return nil }
        return output
    }()

    /// `bytes` as a piece of a stream (see above); nil if zlib fails.
    static func streamPiece(_ bytes: ByteBuffer) -> ByteBuffer? {
        // Level 3: a frame is compressed on an event loop, once per change of what it shows,
        // and HTML this repetitive gains little from more.
        guard let compressor = try? ZlibCompressor(algorithm: .deflate, configuration: .init(compressionLevel: .compressionLevel3)) else {
            return nil
        }
        var input = bytes
        var output = ByteBufferAllocator().buffer(capacity: compressor.maxSize(from: input))
        guard (try? compressor.deflate(from: &input, to: &output, flush: .sync)) != nil, input.readableBytes == 0 else { return nil }
        // Kept as long as the frame is the newest: not in a buffer sized for the worst case.
        return ByteBuffer(buffer: output)
    }
}
