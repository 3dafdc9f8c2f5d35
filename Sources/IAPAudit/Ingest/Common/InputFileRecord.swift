internal import Foundation
internal import Postgres

/// The `input_file` row every ingested file (or part of a growing file) gets once: how a file is recognised as
/// stored already, and how it is recorded. Receipts and sales reports (and any later ingest path) call these, so the
/// row is written one way.
struct InputFileRecord {
    /// Which ingest path stored the file (`input_file.kind`).
    enum Kind: String {
        case receipts
        case sales
    }

    /// Where in the file this read starts: at its beginning, or where an earlier read of the same growing file ended.
    struct Start {
        var offset = 0
        var line = 1
        var continuesFileID: Int64?
    }

    var kind: Kind
    var path: String
    /// The bytes this read consumes, from the file's beginning: the whole file, or up to its last complete line.
    var digest: FileDigest
    var isGzip: Bool
    var runID: Int64?
    var start = Start()
    var modifiedAt: Date?
    /// Set when this read takes the whole file, settled (`FileScan.completeStat`): `insert` then remembers the path
    /// as known, so later runs skip the file unread while it stays as it is.
    var completeFile: FileStat?

    /// Whether a file of this kind with exactly these bytes is stored already (re-ingest is a no-op).
    static func isStored(_ digest: FileDigest, kind: Kind, on connection: Connection) throws -> Bool {
        let existing = try connection.query(
            "SELECT id FROM input_file WHERE kind = $1 AND sha256 = $2::bytea",
            [kind.rawValue, PostgresBytes(digest.sha256)],
            context: "look up input file by hash")
        return existing.rowCount > 0
    }

    /// What an earlier read of the file at `path` consumed: the longest one, which a grown file must begin with.
    struct EarlierRead {
        var fileID: Int64
        var sha256: [UInt8]
        var size: Int
        var endLine: Int?
        var isGzip: Bool
    }

    static func latestRead(of path: String, kind: Kind, on connection: Connection) throws -> EarlierRead? {
        let result = try connection.query(
            SQLQuery.inputFileLatestRead.text, [kind.rawValue, path], context: "look up an earlier read of \(path)")
        guard let row = result.allRows.first else { return nil }
        return EarlierRead(
            fileID: try row.decode(Int64.self, "id"), sha256: bytes(hex: try row.decode(String.self, "sha256")),
            size: try row.decode(Int.self, "size_bytes"), endLine: try row.decode(Int?.self, "end_line"),
            isGzip: try row.decode(Bool.self, "is_gzip"))
    }

    /// Reserves an id outside any transaction: sequences are not transactional, so the id is the file's even if
    /// another run's transaction is open (receipts reserve one to start parsing before their transaction).
    static func reserveID(on connection: Connection) throws -> Int64 {
        let reserved = try connection.query(
            "SELECT nextval(pg_get_serial_sequence('input_file', 'id')) AS id", context: "reserve a file id")
        return try reserved.first(Int64.self, "id")
    }

    /// Inserts the row, with `id` when one was reserved, and returns the file's id.
    @discardableResult
    func insert(id: Int64? = nil, on connection: Connection) throws -> Int64 {
        // Reserved apart, not as `coalesce($1, nextval(…))`: Citus evaluates every function of an insert's values
        // before sending it on, and would use up an id for each file.
        let id = try id ?? Self.reserveID(on: connection)
        let result = try connection.query(
            SQLQuery.inputFileInsert.text,
            [
                Int(id), PostgresBytes(digest.sha256), digest.size, kind.rawValue, path,
                isGzip ? "gzip" : "none", runID.map { Int($0) }, start.offset, start.line,
                start.continuesFileID.map { Int($0) }, modifiedAt.map { $0.timeIntervalSince1970 },
            ], context: "record input file")
        let stored = try result.first(Int64.self, "id")
        if let completeFile {
            try KnownFiles.remember(
                path: path, kind: kind, stat: completeFile, sha256: digest.sha256, runID: runID, on: connection)
        }
        return stored
    }

    /// Writes the counts of a loaded file, and the last line it consumed (JSON Lines), so a later read numbers on.
    static func recordCounts(
        _ counts: IngestSummary, endLine: Int? = nil, fileID: Int64, on connection: Connection
    ) throws {
        try connection.query(
            SQLQuery.inputFileRecordCounts.text,
            [
                Int(fileID), counts.records, counts.stored, counts.quarantined, counts.transactionEntries,
                counts.alreadyStored, endLine,
            ], context: "record file counts")
    }

    private static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(UInt8(hexDigit(high) << 4 | hexDigit(low)))
        }
        return bytes
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") ? byte - UInt8(ascii: "a") + 10 : byte - UInt8(ascii: "0")
    }
}
