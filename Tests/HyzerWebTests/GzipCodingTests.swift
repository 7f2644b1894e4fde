import CompressNIO
import NIOCore
import Testing
@testable import HyzerWeb

@Suite struct GzipCodingTests {
    /// Whatever frames a stream skips (a slow client gets only the newest), the pieces it
    /// does get, after the header, read as exactly those frames, and the same piece bytes
    /// serve every stream.
    @Test func anySequenceOfPiecesAfterTheHeaderIsOneGzipStream() throws {
        var generator = SystemRandomNumberGenerator()
        let frames = (0..<12).map { index in
            "event: standings\nid: \(index)\ndata: " + String(repeating: "<tr><td>player \(index)</td><td>\(Int.random(in: 50...70, using: &generator))</td></tr>", count: 40 + index) + "\n\n"
        }
        let pieces = try frames.map { try #require(GzipCoding.streamPiece(ByteBuffer(string: $0))) }
        let header = try #require(GzipCoding.streamHeader)
        for _ in 0..<20 {
            let chosen = (0..<frames.count).filter { _ in Bool.random(using: &generator) }
            let gunzip = try Gunzip()
            var text = try gunzip.inflate(header)
            // Fed piece by piece, as they leave the server: each is readable when it arrives.
            for index in chosen {
                let arrived = try gunzip.inflate(pieces[index])
                #expect(arrived == frames[index])
                text += arrived
            }
            #expect(text == chosen.map { frames[$0] }.joined())
        }
        #expect(pieces[11].readableBytes * 5 < frames[11].utf8.count)
    }

    @Test func acceptEncodingIsReadAsBrowsersAndProxiesSendIt() {
        #expect(GzipCoding.acceptsGzip("gzip, deflate, br, zstd"))
        #expect(GzipCoding.acceptsGzip("br;q=1.0, GZIP;q=0.5"))
        #expect(GzipCoding.acceptsGzip("*"))
        #expect(!GzipCoding.acceptsGzip(nil))
        #expect(!GzipCoding.acceptsGzip("identity"))
        #expect(!GzipCoding.acceptsGzip("gzip;q=0, br"))
    }
}
