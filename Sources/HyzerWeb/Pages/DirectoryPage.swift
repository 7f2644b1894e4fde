import Foundation
import HyzerCore
import HyzerStore

/// A list of courses, players or events, searchable by name.
struct DirectoryPage: Sendable {
    struct Item: Sendable {
        var name: String
        var detail: String
        var link: String?
        var editLink: String?
    }

    var title: String
    var query: String
    var items: [Item]
    var hasItems: Bool
    var total: Int
    var newLink: String?
    var newLabel: String
    var searchHint: String
    var importLink: String?
    var emptyText: String

    init(
        title: String, query: String, items: [Item], total: Int, newLink: String?, newLabel: String, searchHint: String = "Name or handle",
        importLink: String? = nil
    ) {
        self.searchHint = searchHint
        self.title = title
        self.query = query
        self.items = items
        hasItems = !items.isEmpty
        self.total = total
        self.newLink = newLink
        self.newLabel = newLabel
        self.importLink = importLink
        emptyText = query.isEmpty ? "Nothing here yet." : "Nothing matches “\(query)”."
    }

    /// Items whose name or detail holds every word of the query, ignoring case and accents.
    static func matching(_ query: String, _ items: [Item]) -> [Item] {
        let words = query.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return items }
        return items.filter { item in
            let text = "\(item.name) \(item.detail)"
            return words.allSatisfy { text.range(of: $0, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
        }
    }
}
