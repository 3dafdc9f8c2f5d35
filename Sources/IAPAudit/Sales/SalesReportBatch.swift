internal import AppStoreFormats
internal import Gzip
internal import Logging
internal import Postgres

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The lines of one report file on their way to the database: rows stream into COPY, rejected lines are collected
/// for the quarantine between COPYs, and the periods the rows cover are gathered for `sales_report_period`.
final class SalesReportBatch {
    /// A Begin–End pair some rows carry.
    struct Period: Hashable {
        var begin: CalendarDate
        var end: CalendarDate
    }

    private let reader: LineReader
    private let fileID: Int64
    private let path: String
    private let runID: Int64?
    private let logger: Logger

    private(set) var parser = SalesReportParser()
    private(set) var quarantine = CopyWriter()
    private(set) var periods: Set<Period> = []
    private(set) var counts = IngestSummary()
    /// The file could not be decoded to its end (corrupt or truncated gzip, read error).
    private(set) var hasReadError = false
    /// The reader has no more lines.
    private(set) var isDone = false
    private var scratch: [UInt8] = []

    init(reader: LineReader, fileID: Int64, path: String, runID: Int64?, logger: Logger) {
        self.reader = reader
        self.fileID = fileID
        self.path = path
        self.runID = runID
        self.logger = logger
    }

    /// Reads lines, writing rows to `rows`, until the collected quarantine rows reach `limit` bytes or the file ends.
    func fill(_ rows: inout CopyWriter, until limit: Int) throws {
        let fileID = Int(self.fileID)
        while quarantine.byteCount < limit {
            let event: LineEvent?
            do {
                event = try reader.next()
            } catch {
                try quarantineReadError(error)
                isDone = true
                return
            }
            guard let event else {
                isDone = true
                return
            }
            switch event {
            case .overlong(let number, let length, let prefix):
                counts.records += 1
                try quarantine(
                    line: number, code: SalesIngest.Code.lineTooLong,
                    message: "line is \(length) bytes, longer than the \(reader.maxLineLength)-byte limit",
                    excerpt: prefix)
            case .line(let number, let bytes):
                if Self.containsNUL(bytes) {
                    // PostgreSQL text cannot hold NUL: one such value would fail the whole file's COPY.
                    counts.records += 1
                    try quarantine(
                        line: number, code: SalesIngest.Code.nulByte, message: "line contains a NUL byte",
                        excerpt: Array(bytes))
                    continue
                }
                switch parser.consume(line: bytes, number: number) {
                case .row(let row):
                    counts.records += 1
                    counts.stored += 1
                    if let begin = row.beginDate, let end = row.endDate,
                        parser.layout?.isSales == true
                            || parser.layout == .financial
                    {
                        periods.insert(Period(begin: begin, end: end))
                    }
                    try SalesRows.append(row, fileID: fileID, to: &rows, scratch: &scratch)
                case .rejected(let issue):
                    counts.records += 1
                    try quarantine(
                        line: issue.line, code: issue.code,
                        message: issue.message + (issue.column.map { " (column \"\($0)\")" } ?? ""),
                        excerpt: Array(bytes))
                case .header, .blank, .trailer, .skipped:
                    break
                }
            }
        }
    }

    /// Forgets the collected quarantine rows after they were loaded.
    func resetBuffers() {
        quarantine.reset()
    }

    /// Ends the file: the parser's findings about it as a whole.
    func finish() -> [ReportFinding] {
        parser.finish()
    }

    /// Quarantines a problem with the whole file (`line` 0) or with its header.
    func quarantineFileProblem(line: Int, code: String, message: String) throws {
        try quarantine(line: line, code: code, message: message, excerpt: [])
    }

    private func quarantineReadError(_ error: LineReaderError) throws {
        hasReadError = true
        let code: String
        switch error.underlying.kind {
        case .truncated: code = SalesIngest.Code.truncatedGzip
        case .corrupt(_), .trailingGarbage: code = SalesIngest.Code.corruptGzip
        default: code = SalesIngest.Code.readError
        }
        try quarantine(
            line: error.line, code: code,
            message: "\(error.underlying) (lines before \(error.line) were read)", excerpt: [])
    }

    private func quarantine(line: Int, code: String, message: String, excerpt: [UInt8]) throws {
        let record = QuarantineRecord(
            line: line, recordNumber: nil, reasonCode: code, message: message, excerpt: excerpt)
        try record.append(to: &quarantine, fileID: fileID, path: path, runID: runID)
        counts.quarantined += 1
        counts.quarantinedByReason[code, default: 0] += 1
        logger.debug("quarantined", metadata: ["file": "\(path)", "line": "\(line)", "reason": "\(code)"])
    }

    private static func containsNUL(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return false }
            return memchr(base, 0, buffer.count) != nil
        }
    }
}

@available(*, unavailable)
extension SalesReportBatch: Sendable {}
