internal import AppStoreFormats
internal import Foundation
package import Logging
package import Postgres

/// Loads Sales and Trends, financial and subscription report files into PostgreSQL: each file once by content hash,
/// atomically; rows through COPY with every column kept; bad lines quarantined; findings about a file recorded.
package struct SalesIngest {
    /// Longest line accepted; Apple's rows are a few hundred bytes, so anything near this is not a report.
    package static let defaultMaxLineLength = 1 << 20
    /// Quarantine bytes collected before the row COPY pauses to load them (bounds memory on a file of bad lines).
    static let quarantineBufferLimit = 4 << 20

    private let connection: Connection
    private let runID: Int64?
    private let maxLineLength: Int
    private let logger: Logger
    /// Reads every file, also those `known_file` holds unchanged (`--rehash`).
    package var isRehash = false
    /// A file changed less than this long ago is hashed again by the next run rather than remembered as known: its
    /// modification time may not yet tell a later write apart.
    package var settlingSeconds = ReceiptIngest.defaultSettlingSeconds

    /// An ingest writing through `connection`, attributing files to run `runID`.
    package init(
        connection: Connection, runID: Int64?, maxLineLength: Int = SalesIngest.defaultMaxLineLength, logger: Logger
    ) {
        self.connection = connection
        self.runID = runID
        self.maxLineLength = maxLineLength
        self.logger = logger
    }

    /// Ingests every report file under `paths` (files as named; in directories, `.txt`, `.tsv`, `.csv`, each
    /// optionally `.gz`).
    /// A file that cannot be read or stored is quarantined as a whole and the batch goes on.
    package func ingest(paths: [String], stop: StopRequest = StopRequest()) throws -> SalesIngestSummary {
        var summary = SalesIngestSummary()
        let files = try session.files(
            under: paths, accepts: SalesFileKind.accepts(fileName:),
            expected: "report files are .txt, .tsv, .csv, optionally .gz", into: &summary.ingest)
        try session.forEachFile(files, stop: stop, into: &summary, progressStage: "sales") { _, path in
            try ingest(file: path)
        }
        return summary
    }

    /// What this ingest shares with every other: the walk, the per-file loop, a file's claim.
    private var session: IngestSession {
        IngestSession(kind: .sales, connection: connection, runID: runID, logger: logger, isRehash: isRehash)
    }

    /// Ingests one file in one transaction; a file whose bytes were stored before is skipped.
    package func ingest(file path: String) throws -> SalesIngestSummary {
        var summary = SalesIngestSummary()
        summary.ingest.filesSeen = 1
        let stopwatch = Stopwatch()
        let scan = try FileScan.of(path: path)
        let digest = scan.whole
        let complete = scan.completeStat(consumed: digest, settlingSeconds: settlingSeconds)
        let outcome = try connection.transaction { () throws -> SalesIngestSummary? in
            guard try session.claim(digest, path: path, complete: complete) else { return nil }
            try connection.execute(script: FileTransaction.commitWithoutDiskFlush, context: "settings for \(path)")
            let reader: SalesReportFileReader
            do {
                reader = try SalesReportFileReader(path: path, maxLineLength: maxLineLength)
            } catch {
                throw IAPAuditError.input("cannot open \(path): \(error)")
            }
            var record = InputFileRecord(kind: .sales, path: path, digest: digest, isGzip: reader.isGzip, runID: runID)
            record.completeFile = complete
            let fileID = try record.insert(on: connection)
            return try load(reader, fileID: fileID, path: path)
        }
        guard let outcome else {
            summary.ingest.filesAlreadyIngested = 1
            logger.info("already ingested (same content hash)", metadata: ["file": "\(path)"])
            return summary
        }
        summary.add(outcome)
        logger.info(
            "ingested report",
            metadata: [
                "file": "\(path)", "rows": "\(outcome.ingest.stored)", "quarantined": "\(outcome.ingest.quarantined)",
                "findings": "\(outcome.findingsByCode.values.reduce(0, +))",
                "seconds": "\(stopwatch.formattedSeconds)",
            ])
        return summary
    }

    /// Streams the file's rows into `sales_report_row`, then records the report, its periods, its findings and
    /// the file's counts.
    private func load(_ reader: SalesReportFileReader, fileID: Int64, path: String) throws -> SalesIngestSummary {
        let batch = SalesReportBatch(reader: reader, fileID: fileID, path: path, runID: runID, logger: logger)
        while !batch.isDone {
            try connection.copyIn(SalesRows.rowCopy, context: "COPY sales_report_row from \(path)") { rows in
                try batch.fill(&rows, until: Self.quarantineBufferLimit)
            }
            try connection.copyIn(QuarantineRecord.copyStatement, rows: batch.quarantine, context: "COPY quarantine")
            batch.resetBuffers()
        }
        let findings = batch.finish()
        var summary = SalesIngestSummary()
        for finding in findings {
            // Nothing of the file could be stored: that is a quarantined file, not only a fact about it. A file
            // that failed to decode is quarantined for that already.
            let reason = QuarantineReason(rawValue: finding.code)
            guard finding.severity == .error || reason == .emptyFile else { continue }
            if reason == .emptyFile && batch.hasReadError { continue }
            guard let reason else {
                throw IAPAuditError.internalInconsistency("finding \(finding.code) is not a quarantine reason")
            }
            try batch.quarantineFileProblem(line: finding.line ?? 0, reason: reason, message: finding.message)
        }
        try connection.copyIn(QuarantineRecord.copyStatement, rows: batch.quarantine, context: "COPY quarantine")
        try recordReport(batch, fileID: fileID, path: path)
        if batch.parser.layout == .paymentsSummary {
            try PaymentsRows.record(batch.payments, fileID: fileID, on: connection)
        }
        for finding in findings {
            try connection.query(
                "INSERT INTO sales_report_finding (file_id, code, severity, line, message) VALUES ($1, $2, $3, $4, $5)",
                [Int(fileID), finding.code, finding.severity.rawValue, finding.line, finding.message],
                context: "record finding")
            summary.findingsByCode[finding.code, default: 0] += 1
        }
        summary.ingest.add(batch.counts)
        summary.ingest.filesIngested = 1
        try InputFileRecord.recordCounts(summary.ingest, fileID: fileID, on: connection)
        return summary
    }

    /// Writes `sales_report` (layout, header, what the file name says) and `sales_report_period`.
    private func recordReport(_ batch: SalesReportBatch, fileID: Int64, path: String) throws {
        let parser = batch.parser
        // A Payments summary row the parser kept but that is no region was quarantined, not stored.
        let unreadableRegions = batch.payments.rejectedRowCount
        let name = ReportFileName((path as NSString).lastPathComponent)
        try connection.query(
            SQLQuery.salesReportInsert.text,
            [
                Int(fileID), (parser.layout ?? .unknown).name, parser.columnNames,
                name?.kind.rawValue, name?.vendorNumber, name?.frequency?.rawValue, name?.year, name?.month,
                name?.day, name?.region, parser.storedRowCount - unreadableRegions,
                parser.rejectedRowCount + unreadableRegions,
            ], context: "record report \(path)")
        var all = batch.periods
        if let days = name?.coveredDays, parser.layout?.isSales == true {
            all.insert(SalesReportBatch.Period(begin: days.lowerBound, end: days.upperBound))
        }
        for period in all.sorted(by: { ($0.begin, $0.end) < ($1.begin, $1.end) }) {
            try connection.query(
                "INSERT INTO sales_report_period (file_id, begin_date, end_date) VALUES ($1, $2::date, $3::date)",
                [Int(fileID), period.begin.description, period.end.description], context: "record report period")
        }
    }
}
