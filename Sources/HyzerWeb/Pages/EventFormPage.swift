import Foundation
import HyzerCore
import HyzerStore

struct EventFormPage: Sendable {
    var title = "New event"
    var form: FormState
    var target = FormTarget(action: "/events", heading: "New event", submit: "Create the event")
    var isEdit = false
    /// Seasons the new event can be a league night of (none when editing).
    /// Stored, not computed: templates see only stored properties.
    var seasons: [Option] = [] {
        didSet { hasSeasons = !seasons.isEmpty }
    }
    var hasSeasons = false

    static func seasonOptions(_ seasons: [Season], chosen: String?) -> [Option] {
        [Option(value: "", label: "No season (a night of its own)", selected: chosen?.isEmpty ?? true)]
            + seasons.map { Option(value: Format.id($0.id), label: $0.name, selected: Format.id($0.id) == chosen) }
    }
}
