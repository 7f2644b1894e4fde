import CompressNIO
import Foundation
import NIOCore

/// Streams files through zlib's gzip (compress-nio) a megabyte at a time, so a backup never
/// holds a whole database in memory.
enum Gzip {
    static let chunk = 1 << 20

    /// A gzip stream written to a file as bytes are fed in.
    final class Writer {
        private let compressor: ZlibCompressor
        private let output: FileHandle
        private var window: ByteBuffer
        private(set) var bytesIn: Int64 = 0

        init(to url: URL, level: ZlibConfiguration.CompressionLevel = .compressionLevel3) throws {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            output = try FileHandle(forWritingTo: url)
            compressor = try ZlibCompressor(algorithm: .gzip, configuration: .init(compressionLevel: level))
            window = ByteBufferAllocator().buffer(capacity: Gzip.chunk)
        }

        func write(_ bytes: Data) throws {
            bytesIn += Int64(bytes.count)
            var input = ByteBuffer(bytes: bytes)
            try deflate(&input, flush: .no)
        }

        /// Ends the stream and syncs the file to disk.
        func finish() throws {
            var empty = ByteBuffer()
            try deflate(&empty, flush: .finish)
            try output.synchronize()
            try output.close()
        }

        private func deflate(_ input: inout ByteBuffer, flush: CompressNIOFlush) throws {
            while true {
                if flush != .finish, input.readableBytes == 0 { return }
                do {
                    try compressor.deflate(from: &input, to: &window, flush: flush)
                    if flush == .finish { break }
                    // Everything consumed with room to spare: keep the window for the next write.
                    if input.readableBytes == 0, window.writableBytes > 0 { return }
                } catch let error as CompressNIOError where error == .bufferOverflow {
                    // The window is full: drain it and go on.
                }
                try drain()
            }
            try drain()
        }

        private func drain() throws {
            guard window.readableBytes > 0 else { return }
            try output.write(contentsOf: Data(window.readableBytesView))
            window.clear()
        }
    }

    /// Decompresses a gzip file into another, reporting bytes read from the source. Stops
    /// with `BackupError.damaged` past `limit` bytes out: an uploaded "gzip bomb" must not
    /// fill the disk.
    static func decompress(_ source: URL, to destination: URL, limit: Int64, progress: (Int64) -> Void = { _ in }) throws {
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        _ = FileManager.default.createFile(atPath: destination.path, contents: nil)
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        let decompressor = try ZlibDecompressor(algorithm: .gzip)
        var window = ByteBufferAllocator().buffer(capacity: chunk * 4)
        var read: Int64 = 0
        var written: Int64 = 0
        var ended = false
        while let data = try input.read(upToCount: chunk), !data.isEmpty {
            read += Int64(data.count)
            var compressed = ByteBuffer(bytes: data)
            while compressed.readableBytes > 0 {
                do {
                    try decompressor.inflate(from: &compressed, to: &window)
                    // Returned without needing more room: the input is used up or the stream ended.
                    if compressed.readableBytes > 0 { ended = true }
                } catch let error as CompressNIOError where error == .bufferOverflow {
                    // The window is full: drain it below and go on.
                } catch let error as CompressNIOError where error == .inputBufferOverflow {
                    break
                } catch let error as CompressNIOError {
                    throw BackupError.damaged("the compressed data is damaged (\(error))")
                }
                if window.readableBytes > 0 {
                    written += Int64(window.readableBytes)
                    guard written <= limit else {
                        throw BackupError.damaged("it expands to more than \(limit / 1_000_000) MB, far more than a backup of this size can hold")
                    }
                    try output.write(contentsOf: Data(window.readableBytesView))
                    window.clear()
                }
                if ended { break }
            }
            progress(read)
            if ended { break }
        }
    }
}
