import Hummingbird
import HyzerCore

/// The `?page=N` of a list that pages through its records (1 is the first page).
enum PageNumber {
    /// Far past any club's rounds, and small enough that its offset never overflows.
    static let range = 1...100_000

    /// A page asks for a number in `range`; nothing asked is page 1.
    static func parse(_ request: Request) throws(FieldErrors) -> Int {
        guard let text = request.uri.queryParameters.get("page") else { return 1 }
        guard let page = Int(text), range.contains(page) else {
            throw FieldErrors("page", "page is a number from \(range.lowerBound) to \(range.upperBound).")
        }
        return page
    }

    /// For pages people follow links to: anything that is not a page number is the first page.
    static func lenient(_ request: Request) -> Int {
        (try? parse(request)) ?? 1
    }
}
