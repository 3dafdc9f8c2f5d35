import EmbeddedPostgres
import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit

/// One record's value, one file's history or two commands at once: none of them stops a batch, loses a file or
/// moves a number (issue 30, items 1, 2, 3, 6 and 9).
struct OneRecordCannotStopABatchTests {
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> BinaryUnderTest.Outcome {
        let outcome = try BinaryUnderTest.run(arguments, environment: environment, timeout: 300)
        #expect(!outcome.timedOut, "iap-audit \(arguments.prefix(2).joined(separator: " ")) hung")
        return outcome
    }

    /// A good receipt for transaction `id`, with members added to its envelope, receipt or in_app entry.
    static func receipt(_ id: Int, envelope: String = "", receipt: String = "", entry: String = "") -> String {
        #"{"application_username": "user\#(id)@example.com", \#(envelope)"response": {"status": 0, "#
            + #""environment": "Production", "receipt": {\#(receipt)"bundle_id": "com.example.game", "in_app": [{\#(entry)"#
            + #""quantity": "1", "product_id": "coins", "transaction_id": "\#(id)", "original_transaction_id": "#
            + #""\#(id)", "purchase_date": "2014-03-02 10:00:00 Etc/GMT"}]}}}"#
    }

    /// Item 3: a date whose microseconds overflow 64 bits killed the process (SIGILL) with nothing of the batch stored.
    @Test func aDateThatOverflowedTheEncodingIsQuarantinedAndTheBatchRuns() throws {
        let test = try TestWorkspace()
        try test.write("spool/a.jsonl", Self.receipt(1) + "\n")
        try test.write(
            "spool/b.jsonl",
            [
                Self.receipt(2), Self.receipt(3, envelope: #""recorded_at": "9223372036854776", "#),
                Self.receipt(4, receipt: #""receipt_creation_date_ms": "-9300000000000000", "#),
                Self.receipt(5, entry: #""purchase_date_ms": "-62167219200000", "#),
                Self.receipt(6, entry: #""expires_date_ms": "9300000000000000", "#), Self.receipt(7),
            ].joined(separator: "\n") + "\n")
        let out = test.directory.appendingPathComponent("out").path
        let outcome = try Self.run([
            "run", "--database-url", test.conninfo, "--receipts", test.directory.path + "/spool", "--out", out,
        ])
        #expect(outcome.status == 0, "\(outcome.status) \(outcome.stderr)")
        let quarantined = try test.quarantined()
        #expect(quarantined == [2, 3, 4, 5].map { TestWorkspace.Quarantined(line: $0, reason: "invalid-date") })
        let messages = try test.connection.query("SELECT message FROM quarantine ORDER BY line").rows.map {
            $0[0] ?? ""
        }
        for (message, field) in zip(
            messages, ["recorded_at", "receipt_creation_date_ms", "purchase_date_ms", "expires_date_ms"])
        {
            #expect(message.contains(field) && message.contains("outside the dates the database stores"), "\(message)")
        }
        #expect(try test.count("SELECT count(*) FROM purchase") == 3, "both neighbours and the earlier file")
        #expect(try test.count("SELECT count(*) FROM pipeline_run WHERE outcome = 'running'") == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/flags.html"), "every later stage ran")
    }

    /// Item 2: new bytes under the old path, size and modification time (what `rsync -t` or a restore can do).
    @Test func changedContentUnderTheSameSizeAndModificationTimeIsReadAgain() throws {
        let test = try TestWorkspace()
        let path = try KnownFilesTests.writeSettled(test, "spool/a.jsonl", Self.receipt(1001) + "\n")
        let ingest = ["ingest", "receipts", "--database-url", test.conninfo, path]
        #expect(try Self.run(ingest).status == 0)
        let known = try Self.run(ingest)
        #expect(known.stdout.contains("1 already ingested"), "\(known.stdout)")
        #expect(try KnownFilesTests.lastRun(test, "filesUnchanged") == 1, "unchanged: skipped unread")

        // Same length, other transaction; the modification time put back to the nanosecond, as `touch -r` does.
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        try Data((Self.receipt(1002) + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try KnownFilesTests.setModified(path, to: modified)
        let changed = try Self.run(ingest)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(try KnownFilesTests.lastRun(test, "filesUnchanged") == 0, "\(changed.stdout)")
        #expect(try test.count("SELECT count(*) FROM purchase") == 2, "the new transaction is stored")
    }

    /// Item 9: a raw NUL between the elements of a `.json` array was accepted without a word.
    @Test func aNULBetweenArrayElementsIsQuarantinedAndTheElementsAroundItStored() throws {
        let test = try TestWorkspace()
        let path = try test.write(
            "spool/a.json",
            "[" + Self.receipt(2001) + ",\n\u{0}\n" + Self.receipt(2002) + ",\n" + Self.receipt(2003) + "]")
        let outcome = try Self.run(["ingest", "receipts", "--database-url", test.conninfo, path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try test.count("SELECT count(*) FROM quarantine") == 1, "the NUL is told, not skipped")
        #expect(try test.count("SELECT count(*) FROM purchase") == 3)
    }

    /// Item 6: `init & init` on a fresh home: the second waits or exits 75, never 70.
    @Test func twoInitsAtOnceOnAFreshHomeBothSucceedOrOneWaits() throws {
        let home = TestPostgres.home + "/twice-\(UUID().uuidString.prefix(8))"
        defer {
            if let installation = try? PostgresInstallation.find() {
                try? EmbeddedServer(home: home, installation: installation).destroy()
            }
        }
        let environment = ["IAP_AUDIT_HOME": home]
        let first = try BinaryUnderTest.start(["init"], environment: environment)
        let second = try BinaryUnderTest.start(["init"], environment: environment)
        for (process, _, _) in [first, second] { process.waitUntilExit() }
        let statuses = [first.0.terminationStatus, second.0.terminationStatus]
        let errors = [first.2, second.2].map { (try? String(contentsOf: $0, encoding: .utf8)) ?? "" }
        #expect(statuses.allSatisfy { $0 == 0 || $0 == 75 }, "\(statuses) \(errors)")
        #expect(statuses.contains(0), "\(errors)")
    }
}
