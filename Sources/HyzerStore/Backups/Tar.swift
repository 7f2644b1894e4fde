import Foundation

/// The few ustar pieces a backup needs: regular files with plain names, so that a backup is
/// also an ordinary `.tar.gz` anyone can open with `tar xzf`.
enum Tar {
    static let block = 512

    static func header(name: String, size: Int64, modified: Date) -> Data {
        var header = [UInt8](repeating: 0, count: block)
        func put(_ text: String, at offset: Int, length: Int) {
            for (index, byte) in text.utf8.prefix(length).enumerated() { header[offset + index] = byte }
        }
        func octal(_ value: Int64, length: Int) -> String {
            let digits = String(value, radix: 8)
            return String(repeating: "0", count: max(0, length - 1 - digits.count)) + digits
        }
        put(name, at: 0, length: 100)
        put(octal(0o644, length: 8), at: 100, length: 7)
        put(octal(0, length: 8), at: 108, length: 7)
        put(octal(0, length: 8), at: 116, length: 7)
        put(octal(size, length: 12), at: 124, length: 11)
        put(octal(Int64(modified.timeIntervalSince1970), length: 12), at: 136, length: 11)
        put("        ", at: 148, length: 8)
        header[156] = UInt8(ascii: "0")
        put("ustar", at: 257, length: 6)
        put("00", at: 263, length: 2)
        put("hyzer", at: 265, length: 32)
        put("hyzer", at: 297, length: 32)
        let sum = header.reduce(0) { $0 + Int($1) }
        put(octal(Int64(sum), length: 7) + "\0 ", at: 148, length: 8)
        return Data(header)
    }

    static func padding(after size: Int64) -> Data {
        let remainder = Int(size % Int64(block))
        return Data(count: remainder == 0 ? 0 : block - remainder)
    }

    static let end = Data(count: block * 2)

    /// Reads a tar file's entries into `directory`, accepting only the names in `allowed`
    /// (nothing from an uploaded file may land anywhere else). Returns the names found.
    static func extract(_ archive: URL, into directory: URL, allowed: Set<String>) throws -> [String] {
        let input = try FileHandle(forReadingFrom: archive)
        defer { try? input.close() }
        var names: [String] = []
        while true {
            guard let header = try input.read(upToCount: block), header.count == block else {
                throw BackupError.damaged("the archive ends in the middle of an entry (truncated)")
            }
            if header.allSatisfy({ $0 == 0 }) { return names }
            var name = String(decoding: header.prefix(100).prefix { $0 != 0 }, as: UTF8.self)
            let sizeText = String(decoding: header[124..<136].prefix { $0 != 0 && $0 != 32 }, as: UTF8.self)
            // `tar czf x.tar.gz -C folder .` writes "./" and "./name": the same files.
            if name.hasPrefix("./") { name.removeFirst(2) }
            if name.isEmpty, header[156] == UInt8(ascii: "5") { continue }
            guard header[156] == UInt8(ascii: "0") || header[156] == 0 else { throw BackupError.damaged("entry \"\(name)\" is not a plain file") }
            guard allowed.contains(name), !names.contains(name) else { throw BackupError.damaged("unexpected entry \"\(name)\" in the archive") }
            guard let size = Int64(sizeText, radix: 8), size >= 0 else { throw BackupError.damaged("entry \(name) has no valid size") }
            let url = directory.appendingPathComponent(name)
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let output = try FileHandle(forWritingTo: url)
            var left = size
            while left > 0 {
                guard let data = try input.read(upToCount: Int(min(left, Int64(Gzip.chunk)))), !data.isEmpty else {
                    try? output.close()  // quiet: the truncation is thrown
                    throw BackupError.damaged("entry \(name) is cut short (truncated archive)")
                }
                try output.write(contentsOf: data)
                left -= Int64(data.count)
            }
            try output.close()
            let pad = padding(after: size).count
            if pad > 0 { _ = try input.read(upToCount: pad) }
            names.append(name)
        }
    }
}
