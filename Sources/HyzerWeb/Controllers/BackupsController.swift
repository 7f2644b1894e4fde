import Foundation
import Hummingbird
import HyzerCore
import HyzerStore
import NIOCore

/// `/admin/backups/…`: back up now, download, upload, and restore with a confirmation that
/// names the backup's time and counts. Admins only.
struct BackupsController {
    let stores: Stores
    let renderer: TemplateRenderer
    let desk: BackupDesk
    let maxUpload: Int

    func addRoutes(to groups: RouteGroups) {
        groups.admin.post("/admin/backups", use: create)
        groups.admin.post("/admin/backups/upload", use: upload)
        groups.admin.get("/admin/backups/:name", use: download)
        groups.admin.get("/admin/backups/:name/restore", use: confirm)
        groups.admin.post("/admin/backups/:name/restore", use: restore)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            let record = try await stores.createBackup(reason: .manual)
            await desk.copies?.copy(record, from: stores)
            return .redirect(to: "/admin?done=backup#backups", type: .normal)
        } catch let error as BackupError {
            // Busy, or made but failed its verification: the page says which.
            throw Problem(status: .conflict, title: "Backup not made", detail: error.description, type: "/problems/backup")
        }
    }

    @Sendable func download(_ request: Request, context: AppRequestContext) async throws -> Response {
        let record = try record(context)
        let file = stores.backups.url.appendingPathComponent(record.id)
        let handle = try FileHandle(forReadingFrom: file)
        let body = ResponseBody { writer in
            defer { try? handle.close() }
            while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
                try await writer.write(ByteBuffer(bytes: data))
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/gzip", .contentLength: String(record.archiveBytes),
                .contentDisposition: "attachment; filename=\"\(record.id)\"", .cacheControl: "no-store",
            ], body: body)
    }

    @Sendable func confirm(_ request: Request, context: AppRequestContext) async throws -> HTML {
        try await confirmPage(try restorable(context))
    }

    @Sendable func restore(_ request: Request, context: AppRequestContext) async throws -> Response {
        let record = try restorable(context)
        let form = try await request.decode(as: RestoreForm.self, context: context)
        guard form.confirm == record.id else {
            return try await confirmPage(record, error: "Confirm with the button below.", status: .unprocessableContent).response(
                from: request, context: context)
        }
        do {
            _ = try await desk.restore(stores.backups.url.appendingPathComponent(record.id))
        } catch let error as BackupError {
            return try await confirmPage(record, error: error.description, status: .conflict).response(from: request, context: context)
        } catch let error as StoreError {
            return try await confirmPage(record, error: error.description, status: .unprocessableContent).response(from: request, context: context)
        }
        return .redirect(to: "/admin?done=restored#backups", type: .normal)
    }

    /// Takes a backup file as the request body (streamed to disk, at most `maxUpload`
    /// bytes), verifies it, and answers with where to confirm its restore.
    @Sendable func upload(_ request: Request, context: AppRequestContext) async throws -> Response {
        let type = request.headers[.contentType].flatMap(MediaType.init(from:))
        guard let type, type.isType(MediaType(type: .application, subType: "gzip")) || type.isType(.applicationBinary) else {
            throw Problem(status: .unsupportedMediaType, title: "Unsupported media type", detail: "Send the backup file itself as application/gzip.")
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxUpload {
            throw Problem(status: .contentTooLarge, title: "Too large", detail: "A backup upload may be at most \(Format.bytes(Int64(maxUpload))).")
        }
        let incoming = stores.backups.url.appendingPathComponent(".upload-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: incoming.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: incoming) }
        let output = try FileHandle(forWritingTo: incoming)
        var received = 0
        do {
            for try await buffer in request.body {
                received += buffer.readableBytes
                guard received <= maxUpload else {
                    throw Problem(
                        status: .contentTooLarge, title: "Too large", detail: "A backup upload may be at most \(Format.bytes(Int64(maxUpload))).")
                }
                try output.write(contentsOf: Data(buffer.readableBytesView))
            }
            try output.close()
        } catch {
            try? output.close()
            throw error
        }
        guard received > 0 else { throw Problem(status: .unprocessableContent, title: "Empty upload", detail: "The upload held no file.") }
        let record: BackupRecord
        do {
            record = try await stores.importBackup(incoming)
        } catch let error as BackupError {
            throw Problem(
                status: .unprocessableContent, title: "Not a good backup",
                detail: "\(error.description) It was kept in the backups folder, listed under failed backups.", type: "/problems/backup")
        } catch let error as StoreError {
            throw Problem(status: .unprocessableContent, title: "Not a good backup", detail: error.description, type: "/problems/backup")
        }
        let location = "/admin/backups/\(record.id)/restore"
        var response = try JSONResponse(["location": location, "backup": record.id]).response(from: request, context: context)
        response.status = .created
        response.headers[.location] = location
        return response
    }

    private func record(_ context: AppRequestContext) throws -> BackupRecord {
        guard let name = context.parameters.get("name"), let record = stores.backups.record(name) else { throw StoreError.notFound("Backup") }
        return record
    }

    private func restorable(_ context: AppRequestContext) throws -> BackupRecord {
        let record = try record(context)
        guard record.isVerified else {
            throw Problem(status: .conflict, title: "Not restorable", detail: BackupError.notRestorable(record.id).description)
        }
        return record
    }

    private func confirmPage(_ record: BackupRecord, error: String? = nil, status: HTTPResponse.Status = .ok) async throws -> HTML {
        let current = try await stores.currentCounts()
        return renderer.page(
            RestoreConfirmPage(
                backup: BackupsView.Item(record, now: Date()), thisDevice: record.manifest?.deviceID == stores.domain.deviceID,
                current: current.summary, hasCloud: desk.hasCloud, error: error),
            "restore-confirm", status: status)
    }
}

struct RestoreForm: Decodable {
    var confirm: String?
}

/// A small JSON body for answers that are not domain models.
struct JSONResponse: ResponseGenerator {
    let values: [String: String]
    init(_ values: [String: String]) { self.values = values }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(values))))
    }
}
