package import Gzip

/// Why a record, a line or a whole file went to the quarantine: the one vocabulary of reason codes.
///
/// The raw values are stored in `quarantine.reason_code`, counted in summaries and read by reports and analysts, so
/// they never change; a new ingest path adds cases rather than spelling its own strings. The parsers produce them,
/// which is why they live here and not in the pipeline.
package enum QuarantineReason: String, Sendable, Hashable, CaseIterable {
    // A receipt record that cannot be stored (`ReceiptRecordParser`).
    case invalidJSON = "invalid-json"
    case invalidUTF8 = "invalid-utf8"
    case notAnObject = "not-an-object"
    case missingResponse = "missing-response"
    case missingField = "missing-field"
    case wrongType = "wrong-type"
    case invalidDate = "invalid-date"
    case invalidNumber = "invalid-number"
    case invalidValue = "invalid-value"
    case nulCharacter = "nul-character"
    case invalidUsernameHash = "invalid-username-hash"
    case usernameHashMismatch = "username-hash-mismatch"
    /// A value longer than any real one, that would not fit the index it goes to (an id of thousands of bytes).
    case valueTooLong = "value-too-long"
    /// Signed data (StoreKit 2) that is not a compact JWS at all: not three parts, bad base64url, a header or payload
    /// that is not a JSON object (`CompactJWS`). A JWS that parses but does not verify is kept, not quarantined.
    case invalidJWS = "invalid-jws"

    // A stretch of a receipt file that is not a record (`ReceiptFileReader`).
    case recordTooLong = "record-too-long"
    case trailingData = "trailing-data"

    // A report line that cannot be stored (`SalesReportParser`, `SalesReportFileReader`).
    case shortRow = "short-row"
    case longRow = "long-row"
    case missingKey = "missing-key"
    case lineTooLong = "line-too-long"
    case nulByte = "nul-byte"

    // A report header that makes the file's rows unreadable (`SalesReportParser`).
    case unrecognisedHeader = "unrecognised-header"
    case duplicateHeader = "duplicate-header"
    case missingColumns = "missing-columns"

    // Any file that cannot be decoded to its end, or holds nothing.
    case truncatedGzip = "truncated-gzip"
    case corruptGzip = "corrupt-gzip"
    case readError = "read-error"
    case emptyFile = "empty-file"
    /// A file in UTF-16 (it starts with a UTF-16 byte order mark): rejected once, as a whole, rather than line by line.
    case utf16File = "utf16-file"
    /// The database refused a file's rows for a reason no parser check foresaw: the file is rolled back and recorded
    /// here, and the batch goes on.
    case databaseError = "database-error"

    /// The reason for a failure to decode a file: truncated or corrupt gzip, or a read error.
    package init(decoding error: GzipError) {
        switch error.kind {
        case .truncated: self = .truncatedGzip
        case .corrupt, .trailingGarbage: self = .corruptGzip
        default: self = .readError
        }
    }
}
