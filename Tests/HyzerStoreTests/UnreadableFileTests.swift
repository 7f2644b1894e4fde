import Foundation
import Testing

@testable import HyzerStore

/// Files beside the stores that cannot be read are said so, never taken for missing.
@Suite struct UnreadableFileTests {
    @Test func anUnreadableClusterMarkerIsAnErrorNotAnUnmarkedFolder() throws {
        let directory = try TemporaryDirectory()
        #expect(try ClusterMarker.read(in: directory.url) == nil, "no marker: not in a cluster")
        try ClusterMarker.keep("cluster-1", in: directory.url)
        #expect(try ClusterMarker.read(in: directory.url) == "cluster-1")
        // A marker that cannot be read (here a folder in its place).
        let marker = directory.url.appendingPathComponent(ClusterMarker.fileName)
        try FileManager.default.removeItem(at: marker)
        try FileManager.default.createDirectory(at: marker, withIntermediateDirectories: false)
        #expect(throws: StoreError.self) { _ = try ClusterMarker.read(in: directory.url) }
    }

    @Test func anUnreadableDeviceIdCopyIsNotedAndWrittenAgain() async throws {
        let directory = try TemporaryDirectory()
        let id = try await Stores(directory: directory.url).domain.deviceID
        let copy = directory.url.appendingPathComponent(DeviceIdentityFile.name)
        try Data("not an id\n".utf8).write(to: copy)
        let reopened = try await Stores(directory: directory.url)
        #expect(reopened.domain.deviceID == id, "sync.sqlite's id stands")
        #expect(try await reopened.operational.storeEvents().map(\.kind) == [.unreadableFile])
        #expect(try DeviceIdentityFile.read(in: directory.url) == id, "the copy is written again")
    }

    @Test func aBackupWhoseRecordCannotBeReadIsListedAsFailed() throws {
        let directory = try TemporaryDirectory()
        let folder = BackupFolder(dataDirectory: directory.url)
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let name = folder.newName(at: Date())
        try Data("{ not a record".utf8).write(to: folder.sidecar(name))
        let listed = try #require(folder.records().first)
        #expect(listed.id == name && listed.status == .failed && !listed.isVerified)
        #expect(listed.failure?.contains("cannot be read") == true)
        #expect(folder.newestRecoveryPoint() == nil, "never offered for a recovery")
    }
}
