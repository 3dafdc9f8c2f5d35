internal import AppStoreFormats
internal import Postgres

/// One record that could not be read, on its way into the `quarantine` table.
struct QuarantineRecord {
    var line: Int
    var recordNumber: Int?
    var reason: QuarantineReason
    var message: String
    /// Raw bytes of the record, not yet redacted: `append` redacts them.
    var excerpt: [UInt8]

    static let copyStatement =
        "COPY quarantine (file_id, path, line, record_number, reason_code, message, excerpt, run_id) FROM STDIN"

    /// Longest excerpt kept: enough to see what was wrong, bounded so garbage cannot fill the database.
    static let excerptLimit = 1024

    /// Renders the row; the excerpt passes through `UsernameRedaction` first, so no raw username is ever kept.
    func append(to rows: inout CopyWriter, fileID: Int64?, path: String, runID: Int64?) throws(PostgresError) {
        rows.field(fileID.map { Int($0) })
        rows.field(path)
        rows.field(line)
        rows.field(recordNumber)
        rows.field(reason.rawValue)
        rows.field(message)
        if excerpt.isEmpty {
            rows.field(nil as String?)
        } else {
            rows.field(bytea: UsernameRedaction.redact(excerpt, limit: Self.excerptLimit))
        }
        rows.field(runID.map { Int($0) })
        try rows.endRow()
    }
}
