import CSV
import Foundation
import Hummingbird
import HyzerCore
import NIOCore

/// Tables to and from CSV with the CSV library (RFC 4180 quoting both ways).
enum CSVTables {
    static let maxBytes = 256 * 1024

    static func encode(_ rows: [[String]]) throws -> String {
        let stream = OutputStream(toMemory: ())
        let writer = try CSVWriter(stream: stream, newline: .crlf)
        for row in rows {
            try writer.write(row: row.map(neutralized))
        }
        writer.stream.close()
        let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The leading characters that make a spreadsheet read a cell as a formula (OWASP's list).
    private static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// A cell that starts like a formula, quoted with a leading apostrophe so a spreadsheet
    /// shows a player's name instead of running it. Judged by the first Unicode scalar: a
    /// Swift `Character` would fold `=` and a zero-width joiner or combining mark after it
    /// into one, and miss it. Numbers (a to-par of -3, an amount of -2.10) stay numbers.
    static func neutralized(_ cell: String) -> String {
        guard let first = cell.unicodeScalars.first, formulaStarts.contains(first), !isNumber(cell) else { return cell }
        return "'" + cell
    }

    /// An optional sign, digits, and optionally a point and more digits: nothing a
    /// spreadsheet could run.
    static func isNumber(_ cell: String) -> Bool {
        let unsigned = cell.hasPrefix("-") || cell.hasPrefix("+") ? cell.dropFirst() : Substring(cell)
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    static func decode(_ text: String) throws(FieldErrors) -> [[String]] {
        // Spreadsheet programs start UTF-8 files with a byte-order mark; it is not a header.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        do {
            let reader = try CSVReader(string: text, hasHeaderRow: false, trimFields: true)
            var rows: [[String]] = []
            while let row = reader.next() {
                rows.append(row)
                if rows.count > ResultsTable.maxRows + 1 { break }
            }
            if let error = reader.error { throw FieldErrors("csv", "The file is not valid CSV: \(error).") }
            return rows
        } catch let errors as FieldErrors {
            throw errors
        } catch {
            throw FieldErrors("csv", "The file is not valid CSV: \(error).")
        }
    }

    /// A `text/csv` body as rows; another type is a 415, a larger one a 413.
    static func rows(of request: Request) async throws -> [[String]] {
        guard let media = MediaType(from: request.headers[.contentType] ?? ""), media.isType(MediaType(type: .text, subType: "csv")) else {
            throw HTTPError(.unsupportedMediaType, message: "Send the file as text/csv.")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBytes)
        } catch is NIOTooManyBytesError {
            throw Problem(status: .contentTooLarge, title: "Too large", detail: "A CSV file may be at most \(maxBytes / 1024) KB.")
        }
        guard let text = String(validating: body.readableBytesView, as: UTF8.self) else {
            throw FieldErrors("csv", "The file must be UTF-8 text.")
        }
        return try decode(text)
    }

    static func response(_ rows: [[String]], filename: String) throws -> Response {
        let safe = filename.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" }
        return Response(
            status: .ok,
            headers: [.contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(String(safe)).csv\""],
            // A byte-order mark first: spreadsheet programs otherwise read UTF-8 names as Latin-1.
            body: .init(byteBuffer: ByteBuffer(string: "\u{FEFF}" + (try encode(rows))))
        )
    }
}
