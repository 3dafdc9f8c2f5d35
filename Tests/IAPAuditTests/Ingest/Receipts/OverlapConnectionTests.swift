import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

/// The second connection of an overlapped receipt ingest (`FileRun`): closed when the ingest ends, not needed when the
/// server refuses it, and a stop request between files still leaves every file stored once.
struct OverlapConnectionTests {
    /// `files` files of three records, each repeating the last record of the file before.
    static func writeFiles(_ files: Int, into test: TestWorkspace) throws -> String {
        for file in 0..<files {
            let lines = (0..<3).map { OverlappedFilesTests.record(file * 2 + $0) }
            try test.write("days/day-\(String(format: "%02d", file)).jsonl", lines.joined(separator: "\n") + "\n")
        }
        return test.directory.appendingPathComponent("days").path
    }

    /// Server sessions on the test's database other than the workspace's own, once those that are ending have ended.
    static func otherSessions(_ test: TestWorkspace) throws -> Int {
        let query =
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        for _ in 0..<100 {
            if try test.count(query) == 0 { return 0 }
            usleep(50_000)
        }
        return try test.count(query)
    }

    static func expectEveryRecordOnce(_ test: TestWorkspace, files: Int) throws {
        #expect(try test.count("SELECT count(*) FROM input_file WHERE kind = 'receipts'") == files)
        #expect(try test.count("SELECT count(*) FROM receipt") == files * 2 + 1)
        #expect(try test.count("SELECT count(DISTINCT record_key) FROM receipt") == files * 2 + 1)
        #expect(try test.count("SELECT count(*) FROM purchase") == files * 2 + 1)
    }

    @Test func theSecondConnectionIsClosedWhenTheIngestEnds() throws {
        let test = try TestWorkspace()
        let summary = try test.workspace.ingestReceipts(paths: [try Self.writeFiles(6, into: test)])
        #expect(summary.filesIngested == 6)
        #expect(try Self.otherSessions(test) == 0)
        try Self.expectEveryRecordOnce(test, files: 6)
    }

    /// A database at its connection limit (the workspace's own connection): that one still loads every file, in order.
    @Test func aRefusedSecondConnectionStillStoresEveryFileOnce() throws {
        let test = try TestWorkspace()
        let days = try Self.writeFiles(6, into: test)
        try test.connection.execute(
            script: "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I CONNECTION LIMIT 1', "
                + "current_database()); END $$")
        defer {
            _ = try? test.connection.execute(
                script: "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I CONNECTION LIMIT -1', "
                    + "current_database()); END $$")
        }
        // The limit holds for the pipeline's role: a second connection is refused.
        #expect(throws: (any Error).self) { _ = try Connection(conninfo: test.conninfo, logger: TestPostgres.logger) }
        let summary = try test.workspace.ingestReceipts(paths: [days])
        #expect(summary.filesIngested == 6)
        #expect(summary.alreadyStored == 5)
        try Self.expectEveryRecordOnce(test, files: 6)
    }

    /// A stop asked for while the second file loads: the files begun are finished and accounted for, the rest are
    /// left, and the next run stores them, each record once.
    @Test func aStopBetweenOverlappedFilesLosesNothingAndStoresNothingTwice() throws {
        let test = try TestWorkspace()
        let days = try Self.writeFiles(8, into: test)
        let stop = StopRequest()
        test.workspace.onProgress = { progress in
            if progress.filesDone == 1 { stop.request(signal: SIGTERM) }
        }
        #expect(throws: (any Error).self) { try test.workspace.ingestReceipts(paths: [days], stop: stop) }
        test.workspace.onProgress = nil
        let stored = try test.count("SELECT count(*) FROM input_file WHERE kind = 'receipts'")
        #expect(stored >= 1 && stored < 8)
        // Every file stored is whole: its counts were recorded in its own transaction.
        #expect(try test.count("SELECT count(*) FROM input_file WHERE records_read <> 3") == 0)
        #expect(try Self.otherSessions(test) == 0)
        let rest = try test.workspace.ingestReceipts(paths: [days])
        #expect(rest.filesIngested == 8 - stored)
        #expect(rest.filesAlreadyIngested == stored)
        try Self.expectEveryRecordOnce(test, files: 8)
    }

    /// The second connection dropped by the server mid-ingest: the batch stops (the database went away under a
    /// file), nothing is left half stored or open, and the next run stores every file, each record once.
    @Test func aSecondConnectionDroppedMidIngestStopsTheBatchAndTheNextRunStoresTheRest() throws {
        let test = try TestWorkspace()
        let days = try Self.writeFiles(8, into: test)
        let own = try test.count("SELECT pg_backend_pid()")
        let conninfo = test.conninfo
        test.workspace.onProgress = { progress in
            // Here the workspace's connection may be loading the next file: the drop is asked on a connection of
            // its own.
            guard progress.filesDone == 1, let admin = try? Connection(conninfo: conninfo, logger: TestPostgres.logger)
            else { return }
            _ = try? admin.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    + "WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> $1", [own])
        }
        #expect(throws: (any Error).self) { try test.workspace.ingestReceipts(paths: [days]) }
        test.workspace.onProgress = nil
        #expect(try Self.otherSessions(test) == 0)
        let stored = try test.count("SELECT count(*) FROM input_file WHERE kind = 'receipts'")
        #expect(stored >= 1 && stored < 8)
        #expect(try test.count("SELECT count(*) FROM input_file WHERE records_read <> 3") == 0)
        let rest = try test.workspace.ingestReceipts(paths: [days])
        #expect(rest.filesIngested == 8 - stored)
        try Self.expectEveryRecordOnce(test, files: 8)
    }
}
