import Foundation
import HyzerCore

/// A player's rating history as an SVG line chart, drawn on the server (no charting
/// JavaScript): it scales to a phone's width and prints. Only numbers and dates go into it.
enum RatingChart {
    static let width = 600.0
    static let height = 220.0
    static let margin = (left: 60.0, right: 16.0, top: 16.0, bottom: 40.0)

    /// Nil with fewer than two values: one point is no line. No text from users goes in it (the
    /// page names the player), so it needs no escaping.
    static func svg(_ history: [ClubRatings.HistoryEntry]) -> String? {
        guard history.count >= 2, let first = history.first?.at, let last = history.last?.at else { return nil }
        let values = history.map(\.rating)
        let low = Double((values.min() ?? 0) / 10 * 10 - 10)
        let high = Double(((values.max() ?? 0) + 9) / 10 * 10 + 10)
        let span = max(last.timeIntervalSince(first), 1)
        let plotWidth = width - margin.left - margin.right
        let plotHeight = height - margin.top - margin.bottom
        func x(_ date: Date) -> Double { margin.left + date.timeIntervalSince(first) / span * plotWidth }
        func y(_ rating: Int) -> Double { margin.top + (high - Double(rating)) / (high - low) * plotHeight }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }
        let points = history.map { "\(number(x($0.at))),\(number(y($0.rating)))" }.joined(separator: " ")
        let day = Date.FormatStyle.dateTime.day().month(.abbreviated).year()
        var svg = #"<svg class="rating-chart" viewBox="0 0 \#(Int(width)) \#(Int(height))" role="img" aria-labelledby="rating-chart-title">"#
        svg += #"<title id="rating-chart-title">Rating after each rated round, \#(values.first ?? 0) to \#(values.last ?? 0)</title>"#
        for rating in stride(from: Int(low), through: Int(high), by: max(10, Int((high - low) / 4) / 10 * 10)) {
            svg +=
                #"<line x1="\#(number(margin.left))" x2="\#(number(width - margin.right))" y1="\#(number(y(rating)))" y2="\#(number(y(rating)))" class="grid"/>"#
            svg += #"<text x="\#(number(margin.left - 6))" y="\#(number(y(rating) + 4))" text-anchor="end">\#(rating)</text>"#
        }
        svg += #"<polyline points="\#(points)" class="line"/>"#
        for entry in history { svg += #"<circle cx="\#(number(x(entry.at)))" cy="\#(number(y(entry.rating)))" r="3.5" class="point"/>"# }
        svg += #"<text x="\#(number(margin.left))" y="\#(number(height - 10))">\#(first.formatted(day))</text>"#
        svg += #"<text x="\#(number(width - margin.right))" y="\#(number(height - 10))" text-anchor="end">\#(last.formatted(day))</text>"#
        return svg + "</svg>"
    }
}
