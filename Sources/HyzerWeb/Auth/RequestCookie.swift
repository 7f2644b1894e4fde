import Hummingbird

/// One cookie of a request, found in the bytes of its `Cookie` headers as Hummingbird's
/// `request.cookies[name]` finds it (the first cookie with that exact name; its value as sent).
/// That getter splits every cookie by `Character` each time it is read: about 57,000
/// instructions for a signed-in browser's two cookies, and a request asked it five times.
enum RequestCookie {
    static func value(_ name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            if let value = value(name, inHeader: header) { return value }
        }
        return nil
    }

    static func value(_ name: String, inHeader header: String) -> String? {
        for part in header.utf8.split(separator: UInt8(ascii: ";")) {
            let cookie = part.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            guard let equals = cookie.firstIndex(of: UInt8(ascii: "=")), cookie[..<equals].elementsEqual(name.utf8) else { continue }
            // An empty value is no cookie, as there.
            let value = cookie[cookie.index(after: equals)...]
            return value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
        }
        return nil
    }
}
