package import Gzip

/// How a receipt file holds its records.
package enum ReceiptFileFormat: String, Sendable {
    /// One JSON object per line (`.jsonl`, `.ndjson`).
    case jsonLines = "jsonl"
    /// One JSON document: an object, or an array of objects (`.json`).
    case jsonDocument = "json"

    /// The format a file name implies, looking through a `.gz` suffix; nil for other names.
    package init?(fileName: String) {
        var name = fileName.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        if name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson") {
            self = .jsonLines
        } else if name.hasSuffix(".json") {
            self = .jsonDocument
        } else {
            return nil
        }
    }
}

/// One thing read from a receipt file: the bytes of a record, or a stretch that could not be read as one.
package enum ReceiptFileItem {
    /// A record's bytes (valid until the next call to `next()`), with the line it starts on and its position.
    case record(line: Int, number: Int, bytes: ArraySlice<UInt8>)
    /// Something that is not a record: reason, message and a bounded excerpt (not yet redacted).
    case unreadable(line: Int, number: Int?, reason: QuarantineReason, message: String, excerpt: [UInt8])
}

/// Streams the records of one receipt file (plain or gzip by magic bytes) with bounded memory.
package final class ReceiptFileReader {
    /// The UTF-8 byte order mark some editors and Windows tools write at the start of a text file: not a record's.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private let file: DecodedFile
    private let format: ReceiptFileFormat
    private let maxRecordLength: Int
    private var lines: LineReader?
    private var splitter: JSONDocumentSplitter?
    private var recordNumber = 0
    private var sawAnything = false
    private var finished = false

    /// Opens `path`; `maxRecordLength` bounds one record (a longer one is quarantined and skipped while streaming).
    package init(path: String, format: ReceiptFileFormat, maxRecordLength: Int) throws(GzipError) {
        self.file = try DecodedFile(path: path)
        self.format = format
        self.maxRecordLength = maxRecordLength
        switch format {
        case .jsonLines: lines = LineReader(file: file, maxLineLength: maxRecordLength)
        case .jsonDocument: splitter = JSONDocumentSplitter(file: file, maxRecordLength: maxRecordLength)
        }
    }

    /// Opens the JSON Lines file `path` to read only its bytes `range`, whose first line is line `firstLine` of the
    /// file: the lines appended to a growing file since an earlier read, up to its last complete line.
    package init(linesOf path: String, range: Range<Int>, firstLine: Int, maxRecordLength: Int) throws(GzipError) {
        self.file = try DecodedFile(path: path)
        self.format = .jsonLines
        self.maxRecordLength = maxRecordLength
        guard try file.restrict(toPlainBytes: range) else {
            throw GzipError(.corrupt("a gzip file cannot be read in part"))
        }
        lines = LineReader(file: file, maxLineLength: maxRecordLength, firstLineNumber: firstLine)
        // The part read on from an earlier read: blank appended lines are no "empty file".
        sawAnything = true
    }

    /// Whether the file was gzip-compressed.
    package var isGzip: Bool { file.isGzip }

    /// For JSON Lines: the number of the last line read so far.
    package private(set) var lastLineNumber = 0

    /// The next record or problem; nil at the end.
    package func next() -> ReceiptFileItem? {
        guard !finished else { return nil }
        let item: ReceiptFileItem?
        if lines != nil { item = nextLine() } else { item = splitter?.next(numbering: &recordNumber) }
        if item != nil {
            sawAnything = true
            return item
        }
        finished = true
        if !sawAnything {
            return .unreadable(
                line: 0, number: nil, reason: .emptyFile, message: "file holds no records", excerpt: [])
        }
        return nil
    }

    private func nextLine() -> ReceiptFileItem? {
        guard let reader = lines else { return nil }
        while true {
            let event: LineEvent?
            do {
                event = try reader.next()
            } catch {
                lines = nil
                return Self.unreadable(error.underlying, line: error.line)
            }
            guard let event else { return nil }
            lastLineNumber = reader.lastLineNumber
            switch event {
            case .line(let number, var bytes):
                if number == 1, let order = UTF16Detection.byteOrder(ofFirstLine: bytes) {
                    // Every line would be an `invalid-json` full of NUL bytes: reject the file once instead.
                    lines = nil
                    return .unreadable(
                        line: 1, number: nil, reason: .utf16File, message: UTF16Detection.message(order), excerpt: [])
                }
                if number == 1 && bytes.starts(with: Self.byteOrderMark) { bytes.removeFirst(3) }
                // Blank lines separate nothing and hold nothing: not records.
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                recordNumber += 1
                return .record(line: number, number: recordNumber, bytes: bytes[...])
            case .overlong(let number, let length, let prefix):
                recordNumber += 1
                return .unreadable(
                    line: number, number: recordNumber, reason: .recordTooLong,
                    message: "line is \(length) bytes, longer than the \(maxRecordLength)-byte limit for one record",
                    excerpt: Array(prefix.prefix(1024)))
            }
        }
    }

    static func unreadable(_ error: GzipError, line: Int) -> ReceiptFileItem {
        .unreadable(
            line: line, number: nil, reason: QuarantineReason(decoding: error), message: "\(error)", excerpt: [])
    }
}

@available(*, unavailable)
extension ReceiptFileReader: Sendable {}
