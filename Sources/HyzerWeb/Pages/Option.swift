import Foundation
import HyzerCore
import HyzerStore

struct Option: Sendable {
    var value: String
    var label: String
    var selected: Bool
}
