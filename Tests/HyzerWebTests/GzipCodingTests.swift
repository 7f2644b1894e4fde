import CompressNIO
import NIOCore
import Testing

@testable import HyzerWeb

@Suite struct GzipCodingTests {
    /// Whatever frames a stream skips (a slow client gets only the newest), the pieces it
    /// does get, after the header, read as exactly those frames, and the same piece bytes
    /// serve every stream.
    @Test func anySequenceOfPiecesAfterTheHeaderIsOneGzipStream() throws {
        let frames = (0..<12).map { index in
            "event: standings\nid: \(index)\ndata: "
                + String(repeating: "<tr><td>player \(index)</td><td>\(50 + index * 7 % 20)</td></tr>", count: 40 + index) + "\n\n"
        }
        let pieces = try frames.map { try #require(GzipCoding.streamPiece(ByteBuffer(string: $0))) }
        let header = try #require(GzipCoding.streamHeader)
        for trial in 0..<20 {
            // Twenty different subsets, the same on every run.
            let mask = (trial &* 2_654_435_761) >> 5
            let chosen = (0..<frames.count).filter { mask & (1 << $0) != 0 }
            let gunzip = try Gunzip()
            var text = try String(decoding: gunzip.inflate(header), as: UTF8.self)
            // Fed piece by piece, as they leave the server: each is readable when it arrives.
            for index in chosen {
                let arrived = try String(decoding: gunzip.inflate(pieces[index]), as: UTF8.self)
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
        #expect(!GzipCoding.acceptsGzip("gzip;q=0, *"))
        #expect(!GzipCoding.acceptsGzip("*;q=0"))
        #expect(GzipCoding.acceptsGzip("identity, *;q=0.1"))
        #expect(GzipCoding.acceptsGzip(" deflate ,\tGZip ; q=0.3 "))
        #expect(!GzipCoding.acceptsGzip("x-gzip ;q=0.000"))
        #expect(GzipCoding.acceptsGzip("x-gzip"))
        #expect(!GzipCoding.acceptsGzip("gzipped, br"))
        #expect(!GzipCoding.acceptsGzip(""))
    }
}
