import Foundation
import Hummingbird
import HyzerCore

/// The fields of an HTML form post (`application/x-www-form-urlencoded`). Read by hand so a
/// form with missing or odd fields is shown again with a message instead of a decoding error.
struct FormFields: Sendable {
    private var values: [String: [String]] = [:]

    init(_ encoded: String) {
        for pair in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            values[name, default: []].append(value)
        }
    }

    static func read(_ request: Request, context: some RequestContext) async throws -> FormFields {
        let buffer = try await request.body.collect(upTo: 64 * 1024)
        return FormFields(String(buffer: buffer))
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    subscript(name: String) -> String? { values[name]?.last }

    func all(_ name: String) -> [String] { values[name] ?? [] }

    func has(_ name: String) -> Bool { values[name] != nil }
}

/// What a form page shows: the values typed so far and a message per field.
struct FormState: Sendable {
    var values: [String: String] = [:]
    var errors: [String: String] = [:]
    var message: String?

    init(values: [String: String] = [:]) {
        self.values = values
    }

    init(values: [String: String], errors: FieldErrors) {
        self.values = values
        for entry in errors.entries where self.errors[entry.field] == nil {
            self.errors[entry.field] = entry.message
        }
        message = "Please fix the marked fields."
    }
}
