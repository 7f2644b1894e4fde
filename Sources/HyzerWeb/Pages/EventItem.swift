import Foundation
import HyzerCore
import HyzerStore

struct EventItem: Sendable {
    var id: String
    var name: String
    var divisions: String
}
