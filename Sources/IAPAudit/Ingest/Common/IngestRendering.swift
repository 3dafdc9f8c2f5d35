internal import AppStoreFormats
internal import AppStoreSignatures
internal import Logging
internal import Postgres

/// The whole way of a file's bytes into COPY rows — reading, parsing, verifying, rendering in text and binary form —
/// exactly as ingest takes it, only without a database: what `fuzz/Ingest` drives, so a value that passes a parser
/// but has no form its column takes (an overflow, an unencodable date) is found without a server.
package enum IngestRendering {
    /// What rendering one file gave.
    package struct Outcome: Sendable {
        /// Records rendered as rows.
        package var stored = 0
        /// Records (or file problems) quarantined with a reason.
        package var quarantined = 0
        /// A value the binary rows could not encode: a parser let through what the column cannot take.
        package var unencodable: String?
    }

    /// Made once: a fuzzer renders thousands of files a second, and the trust store's certificates parse slowly.
    private static let parser = ReceiptRecordParser(hasher: AccountKeyHasher(pepper: nil))
    private static let verifier = SignatureVerifier()
    private static let logger = Logger(label: "iap-audit.fuzz") { _ in SwiftLogNoOpLogHandler() }

    /// Renders the receipt file at `path` (JSON Lines, or one JSON document when its name ends in `.json`) as ingest
    /// would, with `fileID` (large ids exercise the id arithmetic).
    package static func receipts(path: String, fileID: Int64 = (1 << 31) - 1) throws -> Outcome {
        let format = ReceiptFileFormat(fileName: path) ?? .jsonLines
        let reader = try ReceiptFileReader(path: path, format: format, maxRecordLength: 1 << 20)
        let batch = ReceiptBatch(
            reader: reader, parser: parser, signatures: VerifiedSignatures(verifier: verifier), fileID: fileID,
            path: path, runID: Int64.max, logger: logger)
        var outcome = Outcome()
        while !batch.isDone {
            var chunk = ParsedChunk()
            try batch.fill(&chunk, until: 1 << 20)
            if outcome.unencodable == nil { outcome.unencodable = chunk.receipts.unencodable }
        }
        outcome.stored = batch.counts.stored
        outcome.quarantined = batch.counts.quarantined
        return outcome
    }

    /// Renders the sales report file at `path` as ingest would.
    package static func salesReport(path: String, fileID: Int64 = (1 << 31) - 1) throws -> Outcome {
        let reader = try SalesReportFileReader(path: path, maxLineLength: 1 << 20)
        let batch = SalesReportBatch(
            reader: reader, fileID: fileID, path: path, runID: Int64.max, logger: logger)
        while !batch.isDone {
            var rows = CopyWriter()
            try batch.fill(&rows, until: 1 << 20)
            batch.resetBuffers()
        }
        _ = batch.finish()
        var outcome = Outcome()
        outcome.stored = batch.counts.stored
        outcome.quarantined = batch.counts.quarantined
        return outcome
    }
}
