import Foundation
import HyzerCore
import HyzerStore

/// The new-season form.
struct SeasonFormPage: Sendable {
    var title = "New season"
    var form: FormState
    var target = FormTarget(action: "/seasons", heading: "New season", submit: "Create the season")
    var isEdit = false
    var placesBy: [Option]
    var rules: [Option]
    var pastTable: [Option]
    var handicaps: [Option]
    var countBack: Bool

    init(form: FormState) {
        self.form = form
        func options(_ field: String, _ choices: [(String, String)], default first: String) -> [Option] {
            let chosen = form.values[field].flatMap { $0.isEmpty ? nil : $0 } ?? first
            return choices.map { Option(value: $0.0, label: $0.1, selected: $0.0 == chosen) }
        }
        placesBy = options("placesBy", [("gross", "Gross scores"), ("net", "Net scores (gross minus handicap)")], default: "gross")
        rules = options(
            "rule",
            [("fieldSize", "By field size: first gets as many points as finished, then one fewer each place"), ("table", "By our points table")],
            default: "fieldSize")
        pastTable = options("pastTable", [("last", "get the table's last value"), ("zero", "get no points")], default: "last")
        handicaps = options(
            "handicap",
            [
                ("none", "No handicaps"), ("bestOfRecent", "Best 8 of the last 20 rounds"), ("percentage", "A percentage of the last 5 rounds"),
                ("rating", "By rating: (1000 − rating) ÷ the layout's points per throw"),
            ], default: "none")
        countBack = form.values["countBack"] == "on" || form.values["countBack"] == "true"
    }

    /// The form filled in with a season as it is, to change it.
    static func editing(_ season: Season, form: FormState? = nil) -> SeasonFormPage {
        let draft = SeasonDraft(season)
        let values: [String: String] = [
            "name": season.name, "startsOn": season.startsOn ?? "", "endsOn": season.endsOn ?? "",
            "divisions": season.divisions.joined(separator: ", "), "placesBy": draft.placesBy ?? "gross", "rule": draft.rule ?? "fieldSize",
            "table": draft.table?.map(String.init).joined(separator: ", ") ?? "", "pastTable": draft.pastTable ?? "last",
            "participation": season.points.participation == 0 ? "" : String(season.points.participation),
            "bestNights": season.points.bestNights.map(String.init) ?? "", "countBack": season.points.countBack ? "on" : "",
            "handicap": draft.handicap ?? "none", "percent": season.handicap.map { String($0.percent) } ?? "",
            "minimumRounds": String(season.handicap?.minimumRounds ?? 3), "unhandicapped": draft.unhandicapped ?? "gross",
            "unplaced": season.handicap?.unhandicapped == .unplaced ? "on" : "",
        ]
        let path = "/seasons/\(Format.id(season.id))"
        var page = SeasonFormPage(form: form ?? FormState(values: values))
        page.title = "Edit \(season.name)"
        page.target = FormTarget.edit(path, season.name)
        page.isEdit = true
        return page
    }
}
