internal import Postgres

/// Rows rendered from a stretch of one receipt file, handed from the parsing thread to the loading one.
struct ParsedChunk: @unchecked Sendable {
    // @unchecked: a chunk's writers are detached (no connection) and the chunk moves between threads only through
    // `ChunkQueue`, which hands each one over exactly once.
    var receipts = CopyWriter()
    var entries = CopyWriter()
    var links = CopyWriter()
    var renewals = CopyWriter()
    var quarantine = CopyWriter()
}
