internal import Postgres

/// The `input_file` row every ingested file gets once: how a file is recognised as stored already, and how it is
/// recorded. Receipts and sales reports (and any later ingest path) call these, so the row is written one way.
struct InputFileRecord {
    /// Which ingest path stored the file (`input_file.kind`).
    enum Kind: String {
        case receipts
        case sales
    }

    var kind: Kind
    var path: String
    var digest: FileDigest
    var isGzip: Bool
    var runID: Int64?

    /// Whether a file with exactly these bytes is stored already (re-ingest is a no-op).
    static func isStored(_ digest: FileDigest, on connection: Connection) throws -> Bool {
        let existing = try connection.query(
            "SELECT id FROM input_file WHERE sha256 = $1::bytea", [byteaText(digest.sha256)],
            context: "look up input file by hash")
        return existing.rowCount > 0
    }

    /// Reserves an id outside any transaction: sequences are not transactional, so the id is the file's even if
    /// another run's transaction is open (receipts reserve one to start parsing before their transaction).
    static func reserveID(on connection: Connection) throws -> Int64 {
        let reserved = try connection.query(
            "SELECT nextval(pg_get_serial_sequence('input_file', 'id'))", context: "reserve a file id")
        guard let id = reserved.string(0, 0).flatMap({ Int64($0) }) else {
            throw IAPAuditError.internalInconsistency("nextval gave no id")
        }
        return id
    }

    /// Inserts the row, with `id` when one was reserved, and returns the file's id.
    @discardableResult
    func insert(id: Int64? = nil, on connection: Connection) throws -> Int64 {
        let result = try connection.query(
            """
            INSERT INTO input_file (id, sha256, size_bytes, kind, path, compression, run_id)
            VALUES (coalesce($1, nextval(pg_get_serial_sequence('input_file', 'id'))), $2::bytea, $3, $4, $5, $6, $7)
            RETURNING id
            """,
            [
                id.map { Int($0) }, byteaText(digest.sha256), digest.size, kind.rawValue, path,
                isGzip ? "gzip" : "none", runID.map { Int($0) },
            ], context: "record input file")
        guard let stored = result.string(0, 0).flatMap({ Int64($0) }) else {
            throw IAPAuditError.internalInconsistency("INSERT … RETURNING id gave no id")
        }
        return stored
    }

    /// Writes the counts of a loaded file.
    static func recordCounts(_ counts: IngestSummary, fileID: Int64, on connection: Connection) throws {
        try connection.query(
            """
            UPDATE input_file SET records_read = $2, records_stored = $3, records_quarantined = $4,
                transaction_entries = $5 WHERE id = $1
            """, [Int(fileID), counts.records, counts.stored, counts.quarantined, counts.transactionEntries],
            context: "record file counts")
    }
}
