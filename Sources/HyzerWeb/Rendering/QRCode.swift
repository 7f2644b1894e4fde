/// A QR code (ISO/IEC 18004) of a short text in byte mode at error correction level M, for
/// the check-in link a phone scans off the TV or the event page. Versions 1 to 10 (up to 213
/// bytes) are enough for a link; the structure follows Project Nayuki's reference generator.
/// No package in the mirror makes QR codes; a system test compares every module with the
/// Python `qrcode` package's code for the same text and mask.
public struct QRCode: Sendable, Hashable {
    /// Modules per side (21 for version 1, 4 more per version).
    public let size: Int
    public let version: Int
    public private(set) var mask: Int
    /// Row-major, true for dark.
    public private(set) var modules: [Bool]
    private var isFunction: [Bool]

    public enum Failure: Error, Equatable { case tooLong(Int) }

    // Level M, versions 1...10: error correction codewords per block, and blocks.
    private static let eccPerBlock = [10, 16, 26, 18, 24, 16, 18, 22, 22, 26]
    private static let blocks = [1, 1, 1, 2, 2, 4, 4, 4, 5, 5]
    /// Level M's two format bits.
    private static let levelBits = 0

    public subscript(x: Int, y: Int) -> Bool { modules[y * size + x] }

    /// The code of `text`, at the smallest version that holds it and the mask with the least
    /// penalty (or `mask` when given, 0...7).
    public init(_ text: String, mask forced: Int? = nil) throws(Failure) {
        let data = Array(text.utf8)
        guard let version = (1...10).first(where: { Self.dataCapacity($0) * 8 >= 4 + Self.countBits($0) + data.count * 8 }) else {
            throw .tooLong(data.count)
        }
        self.version = version
        size = version * 4 + 17
        modules = Array(repeating: false, count: size * size)
        isFunction = modules
        mask = 0
        drawFunctionPatterns()
        drawCodewords(Self.interleaved(Self.padded(data, version: version), version: version))
        if let forced {
            mask = forced
        } else {
            var best = (mask: 0, penalty: Int.max)
            for candidate in 0..<8 {
                var trial = self
                trial.apply(mask: candidate)
                trial.drawFormatBits(candidate)
                let penalty = trial.penalty()
                if penalty < best.penalty { best = (candidate, penalty) }
            }
            mask = best.mask
        }
        apply(mask: mask)
        drawFormatBits(mask)
    }

    // MARK: Capacity and codewords

    private static func rawCodewords(_ version: Int) -> Int {
        var modules = (16 * version + 128) * version + 64
        if version >= 2 {
            let align = version / 7 + 2
            modules -= (25 * align - 10) * align - 55
            if version >= 7 { modules -= 36 }
        }
        return modules / 8
    }

    private static func dataCapacity(_ version: Int) -> Int {
        rawCodewords(version) - eccPerBlock[version - 1] * blocks[version - 1]
    }

    private static func countBits(_ version: Int) -> Int { version < 10 ? 8 : 16 }

    /// Mode, length, the bytes, a terminator, then the pad bytes the standard names.
    private static func padded(_ data: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        append(0b0100, 4)
        append(data.count, countBits(version))
        for byte in data { append(Int(byte), 8) }
        let capacity = dataCapacity(version) * 8
        append(0, min(4, capacity - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var bytes = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while bytes.count < capacity / 8 {
            bytes.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        return bytes
    }

    /// The data split into blocks, each with its error correction, read column by column.
    private static func interleaved(_ data: [UInt8], version: Int) -> [UInt8] {
        let count = blocks[version - 1]
        let ecc = eccPerBlock[version - 1]
        let raw = rawCodewords(version)
        let short = count - raw % count
        let shortLength = raw / count
        let divisor = ReedSolomon.divisor(degree: ecc)
        var split: [[UInt8]] = []
        var start = 0
        for index in 0..<count {
            let length = shortLength - ecc + (index < short ? 0 : 1)
            var block = Array(data[start..<start + length])
            start += length
            let correction = ReedSolomon.remainder(block, divisor)
            if index < short { block.append(0) }
            split.append(block + correction)
        }
        var result: [UInt8] = []
        for column in 0..<split[0].count {
            for (index, block) in split.enumerated() where column != shortLength - ecc || index >= short {
                result.append(block[column])
            }
        }
        return result
    }

    // MARK: Drawing

    private mutating func set(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    private mutating func drawFunctionPatterns() {
        for index in 0..<size {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    set(x + dx, y + dy, distance != 2 && distance != 4)
                }
            }
        }
        let positions = alignmentPositions
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                let last = positions.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormatBits(0)
        if version >= 7 {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
            let bits = version << 12 | remainder
            for index in 0..<18 {
                let dark = (bits >> index) & 1 == 1
                let a = size - 11 + index % 3
                let b = index / 3
                set(a, b, dark)
                set(b, a, dark)
            }
        }
    }

    private var alignmentPositions: [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var result = [6]
        var position = size - 7
        for _ in 0..<(count - 1) {
            result.insert(position, at: 1)
            position -= step
        }
        return result
    }

    /// Level and mask, with their BCH check bits, in both places the standard puts them.
    private mutating func drawFormatBits(_ mask: Int) {
        let data = Self.levelBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { set(8, index, bit(index)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for index in 9..<15 { set(14 - index, 8, bit(index)) }
        for index in 0..<8 { set(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { set(8, size - 15 + index, bit(index)) }
        set(8, size - 8, true)
    }

    /// The codewords' bits in the standard's zigzag, two columns at a time from the right.
    private mutating func drawCodewords(_ data: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for offset in 0..<2 {
                    let x = right - offset
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    if !isFunction[y * size + x], index < data.count * 8 {
                        modules[y * size + x] = (data[index >> 3] >> (7 - (index & 7))) & 1 == 1
                        index += 1
                    }
                }
            }
            right -= 2
        }
    }

    private mutating func apply(mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] {
                let invert: Bool =
                    switch mask {
                    case 0: (x + y) % 2 == 0
                    case 1: y % 2 == 0
                    case 2: x % 3 == 0
                    case 3: (x + y) % 3 == 0
                    case 4: (x / 3 + y / 2) % 2 == 0
                    case 5: x * y % 2 + x * y % 3 == 0
                    case 6: (x * y % 2 + x * y % 3) % 2 == 0
                    default: ((x + y) % 2 + x * y % 3) % 2 == 0
                    }
                if invert { modules[y * size + x].toggle() }
            }
        }
    }

    // MARK: Choosing a mask

    /// The standard's four penalties: runs of five or more, 2×2 blocks, finder-like
    /// patterns, and the distance of the dark share from half.
    private func penalty() -> Int {
        var total = 0
        let finderLike: [[Bool]] = [
            [true, false, true, true, true, false, true, false, false, false, false],
            [false, false, false, false, true, false, true, true, true, false, true],
        ]
        for horizontal in [true, false] {
            for line in 0..<size {
                let cells = (0..<size).map { horizontal ? self[$0, line] : self[line, $0] }
                var run = 1
                for index in 1...size {
                    if index < size, cells[index] == cells[index - 1] {
                        run += 1
                    } else {
                        if run >= 5 { total += run - 2 }
                        run = 1
                    }
                }
                if size >= 11 {
                    for start in 0...(size - 11) where finderLike.contains(where: { Array(cells[start..<start + 11]) == $0 }) { total += 40 }
                }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let color = self[x, y]
                if color == self[x + 1, y], color == self[x, y + 1], color == self[x + 1, y + 1] { total += 3 }
            }
        }
        let dark = modules.filter { $0 }.count
        total += abs(dark * 20 - modules.count * 10) / modules.count * 10
        return total
    }
}

/// Reed–Solomon error correction over GF(2⁸) with the QR code's polynomial (0x11D).
enum ReedSolomon {
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z = 0
        for shift in stride(from: 7, through: 0, by: -1) {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= Int((y >> shift) & 1) * Int(x)
        }
        return UInt8(z)
    }

    static func divisor(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree - 1) + [1]
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in result.indices {
                result[index] = multiply(result[index], root)
                if index + 1 < result.count { result[index] ^= result[index + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    static func remainder(_ data: [UInt8], _ divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices { result[index] ^= multiply(divisor[index], factor) }
        }
        return result
    }
}

extension QRCode {
    /// The code as an SVG image: one path of dark modules, a quiet zone of four, scaled by the
    /// viewer (crisp at any size, printable).
    public var svg: String {
        let quiet = 4
        let side = size + 2 * quiet
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x, y] else {
                    x += 1
                    continue
                }
                var end = x
                while end < size, self[end, y] { end += 1 }
                path += "M\(x + quiet) \(y + quiet)h\(end - x)v1h-\(end - x)z"
                x = end
            }
        }
        return
            ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \##(side) \##(side)" shape-rendering="crispEdges"><rect width="100%" height="100%" fill="#fff"/><path fill="#000" d="\##(path)"/></svg>"##
    }
}
