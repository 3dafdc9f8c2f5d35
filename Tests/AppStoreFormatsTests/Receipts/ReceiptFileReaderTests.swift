import AppStoreFormats
import Foundation
import Gzip
import Testing

/// How `ReceiptFileReader` cuts receipt files into records.
struct ReceiptFileReaderTests {
    /// One file shape: its name (the format follows from it) and whether its bytes are gzip-compressed.
    struct Shape: Sendable, CustomTestStringConvertible {
        var fileName: String
        var isGzip: Bool
        var testDescription: String { fileName }
    }

    static let shapes = [
        Shape(fileName: "receipts.json", isGzip: false), Shape(fileName: "receipts.json.gz", isGzip: true),
        Shape(fileName: "receipts.jsonl", isGzip: false), Shape(fileName: "receipts.jsonl.gz", isGzip: true),
    ]

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Writes `text` (after a byte order mark) in `shape`; JSON documents hold the records as an array.
    func write(records: [String], as shape: Shape, in directory: URL) throws -> String {
        let format = try #require(ReceiptFileFormat(fileName: shape.fileName))
        let text =
            format == .jsonLines
            ? records.joined(separator: "\n") + "\n" : "[\n" + records.joined(separator: ",\n") + "\n]\n"
        let bytes = Self.byteOrderMark + Array(text.utf8)
        let path = directory.appendingPathComponent(shape.fileName).path
        if shape.isGzip {
            let writer = try GzipWriter(path: path)
            try writer.write(bytes)
            try writer.close()
        } else {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        return path
    }

    @Test(arguments: shapes)
    func readsTheFirstRecordAfterAByteOrderMark(_ shape: Shape) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ReceiptFileReaderTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let records = [#"{"status": 0, "n": 1}"#, #"{"status": 0, "n": 2}"#]
        let path = try write(records: records, as: shape, in: directory)

        let reader = try ReceiptFileReader(
            path: path, format: try #require(ReceiptFileFormat(fileName: shape.fileName)), maxRecordLength: 1 << 20)
        var read: [String] = []
        while let item = reader.next() {
            switch item {
            case .record(let line, let number, let bytes):
                #expect(number == read.count + 1)
                #expect(line == (read.isEmpty ? (shape.fileName.contains("jsonl") ? 1 : 2) : line))
                read.append(String(decoding: bytes, as: UTF8.self))
            case .unreadable(let line, _, let code, let message, _):
                Issue.record("line \(line): \(code): \(message)")
            }
        }
        #expect(reader.isGzip == shape.isGzip)
        #expect(read == records)
    }
}
