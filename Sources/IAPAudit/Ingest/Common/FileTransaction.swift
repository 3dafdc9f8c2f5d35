/// What every input file's transaction sets first.
enum FileTransaction {
    /// Lets the file's transaction commit without waiting for its WAL to reach the disk.
    ///
    /// Waiting cost receipt ingest a disk flush per file, an eighth of its time at 1M entries, with both cores idle.
    /// It loses nothing: PostgreSQL keeps commits in order, so a server crash can only undo the last few files whole
    /// (their `input_file` rows with them), and the next run stores them again. Every statement outside a file's
    /// transaction, the run's final record among them, commits the usual way and so makes all earlier files durable
    /// before the run reports its outcome.
    static let commitWithoutDiskFlush = "SET LOCAL synchronous_commit = off"
}
