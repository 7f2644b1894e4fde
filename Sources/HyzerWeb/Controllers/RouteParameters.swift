import Foundation
import Hummingbird
import HyzerStore

extension RequestContext {
    /// A UUID path parameter. A malformed id names nothing that exists, so it is a 404
    /// like an unknown one, never a 400 page.
    func uuid(_ name: String, _ what: String) throws -> UUID {
        guard let text = parameters.get(name), let id = UUID(text: text) else {
            throw StoreError.notFound(what)
        }
        return id
    }
}
