import Foundation
import HyzerCore
import HyzerStore
import HyzerSync

struct RestoreConfirmPage: Sendable {
    var title = "Restore a backup"
    var backup: BackupsView.Item
    /// The backup was made from this server's own data.
    var thisDevice: Bool
    var current: String
    var hasCloud: Bool
    var error: String?
}
