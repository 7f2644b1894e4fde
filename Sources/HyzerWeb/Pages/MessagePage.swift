import Foundation
import HyzerCore
import HyzerStore

struct MessagePage: Sendable {
    var title: String
    var message: String
}
