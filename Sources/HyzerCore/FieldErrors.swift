import Foundation

/// Problems with input a person typed, each tied to the form field it belongs to so a page
/// can show the message next to that field and an API can list them.
public struct FieldErrors: Error, Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var field: String
        public var message: String
    }

    public private(set) var entries: [Entry] = []

    public init() {}

    public init(_ field: String, _ message: String) {
        add(field, message)
    }

    public mutating func add(_ field: String, _ message: String) {
        entries.append(Entry(field: field, message: message))
    }

    /// Another validator's problems added to these.
    public mutating func merge(_ other: FieldErrors) {
        entries.append(contentsOf: other.entries)
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// The first message for a field: forms show one message per field.
    public subscript(field: String) -> String? {
        entries.first { $0.field == field }?.message
    }

    public var summary: String {
        entries.map(\.message).joined(separator: " ")
    }

    /// Throws self when anything was added; lets validators collect every problem first.
    public func throwIfAny() throws(FieldErrors) {
        if !isEmpty { throw self }
    }
}

/// Text fields arrive with stray whitespace and sometimes control characters pasted from
/// elsewhere; names are checked on their trimmed form.
public enum TextRules {
    static func cleaned(_ text: String?) -> String {
        (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The one way a form or API field holds a whole number: ASCII digits only — no sign,
    /// spaces, fraction or exponent (so `" 3 "`, `"+4"` and `"3.0"` are refused, not guessed).
    public static func wholeNumber(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }

    static func containsControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Validates a required display text of at most `maxLength` characters.
    static func name(_ raw: String?, field: String, label: String, maxLength: Int, into errors: inout FieldErrors) -> String {
        let text = cleaned(raw)
        if text.isEmpty {
            errors.add(field, "\(label) is required.")
        } else if text.count > maxLength || text.unicodeScalars.count > maxLength * 4 {
            // Counted as a reader sees it, and in scalars too: thousands of combining marks on
            // one letter are one character and kilobytes of text.
            errors.add(field, "\(label) can be at most \(maxLength) characters.")
        } else if containsControlCharacters(text) {
            errors.add(field, "\(label) cannot contain control characters.")
        }
        return text
    }
}
