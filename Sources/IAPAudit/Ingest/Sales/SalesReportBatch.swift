internal import AppStoreFormats
internal import Logging
internal import Postgres

/// The lines of one report file on their way to the database: rows stream into COPY, rejected lines are collected
/// for the quarantine between COPYs, and the periods the rows cover are gathered for `sales_report_period`.
final class SalesReportBatch {
    /// A Begin–End pair some rows carry.
    struct Period: Hashable {
        var begin: CalendarDate
        var end: CalendarDate
    }

    private let reader: SalesReportFileReader
    private let fileID: Int64
    private let path: String
    private let runID: Int64?
    private let logger: Logger

    private(set) var parser = SalesReportParser()
    /// A Payments summary's regions, paid footers and arithmetic checks (read beside the parser).
    private(set) var payments = PaymentsSummaryReader()
    private(set) var quarantine = CopyWriter()
    private(set) var periods: Set<Period> = []
    private(set) var counts = IngestSummary()
    /// The file could not be decoded to its end (corrupt or truncated gzip, read error).
    var hasReadError: Bool { reader.hasReadError }
    /// The reader has no more lines.
    private(set) var isDone = false
    private var scratch: [UInt8] = []

    init(reader: SalesReportFileReader, fileID: Int64, path: String, runID: Int64?, logger: Logger) {
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
            guard let item = reader.next() else {
                isDone = true
                return
            }
            switch item {
            case .decodingFailed(let line, let reason, let message):
                try quarantine(line: line, reason: reason, message: message, excerpt: [], isFileProblem: true)
                isDone = true
                return
            case .unreadableLine(let number, let reason, let message, let excerpt):
                counts.records += 1
                try quarantine(line: number, reason: reason, message: message, excerpt: excerpt)
            case .line(let number, let bytes):
                var result = parser.consume(line: bytes, number: number)
                if parser.layout == .paymentsSummary { result = payments.observe(result, line: bytes) }
                switch result {
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
                    guard let reason = issue.reason else {
                        throw IAPAuditError.internalInconsistency("the parser gave an unknown reason \(issue.code)")
                    }
                    try quarantine(
                        line: issue.line, reason: reason,
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
        parser.finish() + (parser.layout == .paymentsSummary ? payments.findings() : [])
    }

    /// Quarantines a problem with the whole file (`line` 0) or with its header.
    func quarantineFileProblem(line: Int, reason: QuarantineReason, message: String) throws {
        try quarantine(line: line, reason: reason, message: message, excerpt: [], isFileProblem: true)
    }

    private func quarantine(
        line: Int, reason: QuarantineReason, message: String, excerpt: [UInt8], isFileProblem: Bool = false
    ) throws {
        let record = QuarantineRecord(
            line: line, recordNumber: nil, reason: reason, message: message, excerpt: excerpt)
        try record.append(to: &quarantine, fileID: fileID, path: path, runID: runID)
        counts.quarantined += 1
        if isFileProblem { counts.quarantinedFileProblems += 1 }
        counts.quarantinedByReason[reason.rawValue, default: 0] += 1
        logger.debug("quarantined", metadata: ["file": "\(path)", "line": "\(line)", "reason": "\(reason.rawValue)"])
    }
}

@available(*, unavailable)
extension SalesReportBatch: Sendable {}
