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
        // Cookies are ASCII. Anything else is read by Hummingbird's own parser, which the
        // session middleware uses: it compares `Character`s, and some (U+037E, a Greek
        // question mark) are equal to `;` there, so the bytes would find other cookies.
        guard HeaderBytes.with(header, { $0.allSatisfy { $0 < 0x80 } }) else { return Cookies(from: [header])[name]?.value }
        return HeaderBytes.with(header) { header in
            var found: String?
            // Blanks after a value are part of it, as Hummingbird reads it.
            HeaderBytes.forEach(in: header[...], separatedBy: UInt8(ascii: ";"), trailing: false) { cookie in
                guard let equals = cookie.firstIndex(of: UInt8(ascii: "=")), cookie[..<equals].elementsEqual(name.utf8) else { return true }
                // An empty value is no cookie, as there.
                let value = cookie[(equals + 1)...]
                found = value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
                return false
            }
            return found
        }
    }

    enum Kinds {
        /// Only the form token (or no cookie at all).
        case formTokenOnly
        /// The session, once, and at most the form token beside it.
        case withSession
        /// Anything else: another cookie, or one named twice.
        case other
    }

    /// Which of Hyzer's cookies a Cookie header holds, and whether it holds anything else.
    static func kinds(in header: String) -> Kinds {
        HeaderBytes.with(header) { header in
            // Read otherwise by Hummingbird's parser (see `value`): no kind the lane may trust.
            guard header.allSatisfy({ $0 < 0x80 }) else { return .other }
            var (sessions, tokens) = (0, 0)
            let known = HeaderBytes.forEach(in: header[...], separatedBy: UInt8(ascii: ";")) { cookie in
                let name = cookie[..<(cookie.firstIndex(of: UInt8(ascii: "=")) ?? cookie.endIndex)]
                if cookie.isEmpty { return true }
                if name.elementsEqual(CSRF.cookieName.utf8) {
                    tokens += 1
                } else if name.elementsEqual(UserSession.cookieName.utf8) {
                    sessions += 1
                } else {
                    return false
                }
                return true
            }
            guard known, tokens <= 1, sessions <= 1 else { return .other }
            return sessions == 1 ? .withSession : .formTokenOnly
        }
    }
}
