import Foundation
import HyzerCore

/// A copy of this device's id beside the stores (`device-id`). The id lives in `sync.sqlite`;
/// when that file is damaged and rebuilt, the copy keeps the device the same device: its
/// clock's device part and the "device of origin" of its records do not change identity.
enum DeviceIdentityFile {
    static let name = "device-id"

    static func read(in directory: URL) -> UUID? {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        return UUID(text: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Written whenever it is missing or differs (a restore may bring another id along).
    static func keep(_ id: UUID, in directory: URL) throws {
        guard read(in: directory) != id else { return }
        try Data((id.text + "\n").utf8).write(to: directory.appendingPathComponent(name), options: .atomic)
    }
}
