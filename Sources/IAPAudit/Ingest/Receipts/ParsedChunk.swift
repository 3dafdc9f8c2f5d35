internal import Postgres

/// Rows rendered from a stretch of one receipt file, handed from the parsing thread to the loading one.
struct ParsedChunk: @unchecked Sendable {
    // @unchecked: a chunk's writers are detached (no connection) and the chunk moves between threads only through
    // `ChunkQueue`, which hands each one over exactly once.
    var receipts = BinaryCopyRows()
    var entries = CopyWriter()
    /// For each row of `entries`: the transaction copy it stages and where the row ends in `entries`' bytes.
    var entryRows: [(copy: StagedCopy, end: Int)] = []
    var links = CopyWriter()
    var renewals = CopyWriter()
    var signedObjects = CopyWriter()
    var quarantine = CopyWriter()
}
