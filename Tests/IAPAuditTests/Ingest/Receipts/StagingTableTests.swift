import AppStoreFormats
import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit

/// The staging table (`receipt_stage.sql`) lives for the session, emptied as each file's transaction commits: a file's
/// merge must see only that file's copies, also when no file commits (`run --dry-run`).
struct StagingTableTests {
    func writeTwoFiles(in test: TestWorkspace) throws -> String {
        try test.write(
            "receipts/a.jsonl", QueryDialectTests.record("ann@example.com", [QueryDialectTests.copy("1")]) + "\n")
        try test.write(
            "receipts/b.jsonl", QueryDialectTests.record("bob@example.com", [QueryDialectTests.copy("2")]) + "\n")
        return test.directory.appendingPathComponent("receipts").path
    }

    func ingest(on test: TestWorkspace) -> ReceiptIngest {
        ReceiptIngest(
            connection: test.connection, hasher: AccountKeyHasher(pepper: nil), runID: nil, logger: TestPostgres.logger)
    }

    func staged(on connection: Connection) throws -> [String] {
        let rows = try connection.query("SELECT transaction_id FROM stage_entry ORDER BY 1")
        return (0..<rows.rowCount).compactMap { rows.string($0, 0) }
    }

    @Test func isEmptyAfterEachCommittedFile() throws {
        let test = try TestWorkspace()
        let folder = try writeTwoFiles(in: test)
        _ = try ingest(on: test).ingest(paths: [folder])
        #expect(try staged(on: test.connection) == [])
        #expect(try test.count("SELECT count(*) FROM purchase") == 2)
    }

    /// The list of a file's records stored before (`stage_duplicate`) lives for the session as well, emptied at
    /// each commit; a file that repeats records of the files before still has them dropped and counted.
    @Test func theListOfRecordsStoredBeforeIsKeptEmptyAndStillCounts() throws {
        let test = try TestWorkspace()
        let folder = try writeTwoFiles(in: test)
        try test.write(
            "receipts/c.jsonl",
            QueryDialectTests.record("ann@example.com", [QueryDialectTests.copy("1")]) + "\n"
                + QueryDialectTests.record("bob@example.com", [QueryDialectTests.copy("2")]) + "\n")
        let summary = try ingest(on: test).ingest(paths: [folder])
        let counted: [Int] = [summary.filesIngested, summary.stored, summary.alreadyStored]
        #expect(counted == [3, 2, 2])
        let left: [Int] = try ["receipt", "stage_duplicate"].map { try test.count("SELECT count(*) FROM \($0)") }
        #expect(left == [2, 0])
    }

    /// Inside a dry run each file is a savepoint, which fires no ON COMMIT: the unit drops its temporary tables
    /// (`Connection.transaction`), so the next file starts from an empty stage all the same.
    @Test func isGoneAfterEachFileWhenNoFileCommits() throws {
        let test = try TestWorkspace()
        let folder = try writeTwoFiles(in: test)
        let ingest = ingest(on: test)
        let (summary, table) = try test.connection.rollingBack { () throws -> (IngestSummary, String?) in
            let summary = try ingest.ingest(paths: [folder])
            return (summary, try test.connection.query("SELECT to_regclass('pg_temp.stage_entry')::text").string(0, 0))
        }
        #expect(summary.filesIngested == 2)
        #expect(table == nil)
        #expect(try test.count("SELECT count(*) FROM purchase") == 0)
    }
}
