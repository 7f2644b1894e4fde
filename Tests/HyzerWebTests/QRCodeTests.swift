import Testing

@testable import HyzerWeb

/// The QR code's structure; every module is compared with the Python `qrcode` package's in
/// `Tests/system/test_checkin_qr.py`.
@Suite struct QRCodeTests {
    @Test func theSmallestVersionThatHoldsTheTextIsChosen() throws {
        #expect(try QRCode(String(repeating: "a", count: 14)).version == 1, "version 1-M holds 14 bytes")
        #expect(try QRCode(String(repeating: "a", count: 15)).version == 2)
        #expect(try QRCode(String(repeating: "a", count: 213)).version == 10)
        #expect(throws: QRCode.Failure.tooLong(214)) { try QRCode(String(repeating: "a", count: 214)) }
    }

    @Test func finderPatternsAndFormatBitsAreWhereTheStandardPutsThem() throws {
        let code = try QRCode("http://club.example/c/0a1b2c3d", mask: 0)
        #expect(code.size == code.version * 4 + 17)
        // A finder's dark ring, light ring and dark core, in all three corners.
        for (x, y) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            #expect(code[x, y] && code[x + 6, y + 6] && !code[x + 1, y + 1] && code[x + 3, y + 3])
        }
        // Level M with mask 0 is the format word 101010000010010 (the standard's table), read
        // from bit 0 at (8, 0) down the column beside the top-left finder.
        let expected = 0b101010000010010
        let read = [(8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 7), (8, 8), (7, 8), (5, 8), (4, 8), (3, 8), (2, 8), (1, 8), (0, 8)]
            .enumerated().reduce(0) { $0 | (code[$1.element.0, $1.element.1] ? 1 << $1.offset : 0) }
        #expect(read == expected)
        #expect(code[8, code.size - 8], "the dark module")
        #expect(try QRCode("same text").svg == QRCode("same text").svg, "the same text always makes the same picture")
    }
}
