import Foundation
import HyzerCore

/// A copy of this device's id beside the stores (`device-id`). The id lives in `sync.sqlite`;
/// when that file is damaged and rebuilt, the copy keeps the device the same device: its
/// clock's device part and the "device of origin" of its records do not change identity.
enum DeviceIdentityFile {
    static let name = "device-id"

    /// The id kept, nil when there is no copy; throws when there is one that cannot be read.
    static func read(in directory: URL) throws -> UUID? {
        let file = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let id = UUID(text: text) else { throw StoreError.damaged("\(name) holds no device id") }
        return id
    }

    /// Written whenever it is missing, differs (a restore may bring another id along) or
    /// cannot be read.
    static func keep(_ id: UUID, in directory: URL) throws {
        guard (try? read(in: directory)) != id else { return }  // quiet: unreadable is rewritten here
        try Data((id.text + "\n").utf8).write(to: directory.appendingPathComponent(name), options: .atomic)
    }
}
