import Foundation
import HyzerCore
import HyzerStore

struct TVPage: Sendable {
    var title = "TV"
    var boards: TVScreen
    var pinnedRound: String
    var pageSeconds: Int
}
