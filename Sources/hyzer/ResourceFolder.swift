import ArgumentParser
import Foundation

/// Where the pages' templates and files (`Templates/`, `Public/`, `OpenAPI/`) are found when no
/// `--resources` is given: installed beside the binary by `make install`
/// (`PREFIX/bin/hyzer` with `PREFIX/share/hyzer`), copied into the binary's own folder, or the
/// working folder (a checkout, `swift run`). So an installed binary runs from any folder.
enum ResourceFolder {
    /// What the server reads from it: its pages, its files, its API document.
    static let folders = ["Templates", "Public", "OpenAPI"]

    static func candidates(executable: URL?, workingDirectory: String) -> [URL] {
        var folders: [URL] = []
        if let binFolder = executable?.resolvingSymlinksInPath().deletingLastPathComponent() {
            folders.append(binFolder.deletingLastPathComponent().appendingPathComponent("share/hyzer"))
            folders.append(binFolder)
        }
        folders.append(URL(fileURLWithPath: workingDirectory))
        return folders
    }

    static func holdsResources(_ folder: URL) -> Bool {
        Self.folders.allSatisfy { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }

    /// The given folder, else the first candidate that holds both; a clear refusal otherwise.
    static func resolve(given: String?) throws -> URL {
        if let given { return URL(fileURLWithPath: given) }
        let candidates = candidates(executable: Bundle.main.executableURL, workingDirectory: FileManager.default.currentDirectoryPath)
        if let found = candidates.first(where: holdsResources) { return found }
        throw ValidationError(
            "Templates/, Public/ and OpenAPI/ were not found in \(candidates.map(\.path).joined(separator: ", ")). "
                + "Install Hyzer with `make install` (it puts them in PREFIX/share/hyzer), or name their folder with --resources.")
    }
}
