import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension UUID {
    /// A random (version 4) id from one `getentropy` call (one `getrandom`). Foundation's `UUID()` on Linux
    /// opens, reads and closes /dev/urandom for each id: three system calls on the path of
    /// every score.
    public static func random() -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let filled = withUnsafeMutableBytes(of: &bytes) { raw -> Bool in
            #if canImport(Glibc)
                return getentropy(raw.baseAddress, raw.count) == 0
            #else
                return false
            #endif
        }
        if !filled {
            var generator = SystemRandomNumberGenerator()
            withUnsafeMutableBytes(of: &bytes) { raw in
                raw.storeBytes(of: generator.next() as UInt64, toByteOffset: 0, as: UInt64.self)
                raw.storeBytes(of: generator.next() as UInt64, toByteOffset: 8, as: UInt64.self)
            }
        }
        // RFC 9562: version 4 in the high nibble of byte 6, variant 10 in the top bits of byte 8.
        bytes.6 = (bytes.6 & 0x0F) | 0x40
        bytes.8 = (bytes.8 & 0x3F) | 0x80
        return UUID(uuid: bytes)
    }
}
