import Foundation
import HyzerCore

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
        // Every reason, in words: a field the page does not show (or a whole-file problem)
        // would otherwise leave "fix the marked fields" with nothing marked.
        message = errors.summary
    }
}
