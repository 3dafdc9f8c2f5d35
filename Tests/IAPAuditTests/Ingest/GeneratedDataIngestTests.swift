import EmbeddedPostgres
import Foundation
import IAPAudit
import Postgres
import SyntheticData
import Testing

/// Ingest of the generator's data, checked against the generator's own ledger, and the privacy promise: no raw
/// username anywhere — database dump, logs, quarantine, reports.
struct GeneratedDataIngestTests {
    @Test func storesExactlyWhatTheGeneratorWrote() throws {
        let test = try TestWorkspace()
        let manifest = try ReceiptDataGenerator(scenario: .small).write(to: test.directory.path, compress: true)
        let summary = try test.workspace.ingestReceipts(paths: [test.directory.appendingPathComponent("receipts").path])
        #expect(summary.records == manifest.records)
        #expect(summary.stored == manifest.goodRecords)
        #expect(summary.quarantined == manifest.badRecords)
        #expect(summary.transactionEntries == manifest.transactionEntries)
        // The generator's "truncated" lines are invalid JSON to a reader; every other reason maps one to one.
        var expected = manifest.badRecordsByReason
        expected["invalid-json", default: 0] += expected.removeValue(forKey: "truncated") ?? 0
        #expect(summary.quarantinedByReason == expected.filter { $0.value > 0 })
        #expect(try test.count("SELECT count(*) FROM purchase") == manifest.distinctTransactions)
        for (environment, count) in manifest.distinctTransactionsByEnvironment {
            #expect(try test.count("SELECT count(*) FROM purchase WHERE environment = '\(environment)'") == count)
        }
        #expect(try test.count("SELECT count(*) FROM purchase_conflict") == 0)
        #expect(
            try test.count(
                "SELECT count(*) FROM purchase WHERE cancellation_date IS NOT NULL AND is_upgraded IS NOT TRUE")
                == manifest.distinctTransactionsWith["refunded", default: 0])
    }

    @Test func noRawUsernameReachesTheDatabaseLogsQuarantineOrReports() throws {
        let capture = LogCapture()
        let test = try TestWorkspace(logger: capture.logger())
        let manifest = try ReceiptDataGenerator(scenario: .small).write(to: test.directory.path, compress: false)
        #expect(!manifest.rawUsernames.isEmpty)
        // A broken line that still carries a username: the quarantine excerpt must not keep it.
        let secret = "mallory.secret@example.com"
        try test.write("receipts/extra/broken.jsonl", #"{"application_username": "\#(secret)", "response": {"#)
        _ = try test.workspace.ingestReceipts(paths: [test.directory.appendingPathComponent("receipts").path])
        #expect(try test.count("SELECT count(*) FROM quarantine WHERE excerpt IS NOT NULL") > 0)

        let out = test.directory.appendingPathComponent("out").path
        var plan = RunPlan(outputDirectory: out)
        plan.reportFormats = ReportFormat.allCases
        _ = try test.workspace.run(plan)

        let dump = try Self.pgDump(conninfo: test.conninfo)
        #expect(dump.contains("CREATE TABLE public.receipt"))
        var reports = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: out) {
            reports += (try? String(contentsOfFile: out + "/" + name, encoding: .utf8)) ?? ""
        }
        #expect(!reports.isEmpty)
        for name in manifest.rawUsernames + [secret] {
            for (place, text) in [("pg_dump", dump), ("logs", capture.text), ("reports", reports)] {
                // Booleans, not the texts, in the expectations: a failure must not print the whole dump.
                let isFound = text.contains(name)
                // JSON escaping in the dump or reports must not hide a match either.
                let isFoundEscaped = text.contains(name.replacingOccurrences(of: "\"", with: "\\\""))
                #expect(!isFound, "raw username found in \(place)")
                #expect(!isFoundEscaped, "JSON-escaped raw username found in \(place)")
            }
        }
    }

    /// The whole database as SQL text (bytea excerpts hex-encoded, so also search them decoded).
    static func pgDump(conninfo: String) throws -> String {
        let installation = try PostgresInstallation.find()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: installation.executable("pg_dump"))
        process.arguments = ["--no-owner", "--dbname", conninfo]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var text = String(decoding: data, as: UTF8.self)
        // Quarantine excerpts are bytea: decode every \x… hex run so a hidden name would show.
        for match in text.matches(of: /\\\\x([0-9a-f]+)/) {
            var bytes: [UInt8] = []
            var hex = Substring(match.1)
            while hex.count >= 2 {
                bytes.append(UInt8(hex.prefix(2), radix: 16) ?? 0)
                hex = hex.dropFirst(2)
            }
            text += "\n" + String(decoding: bytes, as: UTF8.self)
        }
        return text
    }
}
