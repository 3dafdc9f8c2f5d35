import AppStoreFormats
import Foundation
import Logging
import Postgres
import TestSupport

@testable import IAPAudit

/// A migrated, empty database and a scratch directory for one test; the directory goes when the test lets go of it
/// (a suite run leaves gigabytes of generated data otherwise). The database goes with the test server.
final class TestWorkspace {
    let workspace: Workspace
    let conninfo: String
    let directory: URL

    init(
        pepper: [UInt8]? = nil, strict: Bool = false, trustedRoots: [String] = [],
        logger: Logger = TestPostgres.logger
    ) throws {
        conninfo = try TestPostgres.freshDatabase()
        var settings = Settings(
            database: .url(conninfo), environment: ProcessInfo.processInfo.environment,
            hasher: AccountKeyHasher(pepper: pepper))
        settings.isStrict = strict
        settings.trustedRootPaths = trustedRoots
        workspace = try Workspace(settings: settings, logger: logger)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("iap-audit-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    var connection: Connection { workspace.connection }

    /// Writes a file in the scratch directory and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url.path
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    /// One integer from a query.
    func count(_ sql: String) throws -> Int {
        try connection.query(sql).int(0, 0) ?? -1
    }

    /// A quarantined record as tests compare it: where it stood and why.
    struct Quarantined: Equatable {
        var line: Int
        var reason: String
    }

    /// Every quarantined record, by line.
    func quarantined() throws -> [Quarantined] {
        try connection.query("SELECT line, reason_code FROM quarantine ORDER BY line, id").rows.map {
            Quarantined(line: Int($0[0] ?? "") ?? -1, reason: $0[1] ?? "")
        }
    }

    /// Every row of the tables ingest writes, in a canonical order and without surrogate ids or clock times,
    /// so two databases that hold the same data compare equal.
    func canonicalContents() throws -> [[String?]] {
        var rows: [[String?]] = []
        let queries = [
            "SELECT encode(sha256, 'hex'), size_bytes, kind, compression, records_read, records_stored, "
                + "records_quarantined, transaction_entries FROM input_file ORDER BY sha256",
            "SELECT encode(f.sha256, 'hex'), r.record_number, r.line, r.account_key, r.status, r.is_sandbox, "
                + "r.bundle_id, r.transaction_entries, md5(r.raw) FROM receipt r JOIN input_file f ON f.id = r.file_id "
                + "ORDER BY 1, 2",
            "SELECT environment, transaction_id, original_transaction_id, product_id, quantity, purchase_date, "
                + "cancellation_date, is_upgraded, bundle_id FROM purchase ORDER BY 1, 2",
            "SELECT encode(f.sha256, 'hex'), r.record_number, l.source, l.ordinal, p.environment, p.transaction_id "
                + "FROM receipt_purchase l JOIN receipt r ON r.id = l.receipt_id JOIN input_file f ON f.id = r.file_id "
                + "JOIN purchase p ON p.environment = l.environment AND p.transaction_id = l.transaction_id "
                + "ORDER BY 1, 2, 3, 4",
            "SELECT p.transaction_id, c.product_id, encode(f.sha256, 'hex'), r.record_number, c.source, c.ordinal "
                + "FROM purchase_conflict c JOIN purchase p ON p.id = c.purchase_id "
                + "JOIN receipt r ON r.id = c.receipt_id JOIN input_file f ON f.id = r.file_id ORDER BY 1, 2, 3, 4, 5, 6",
            "SELECT encode(f.sha256, 'hex'), r.record_number, n.ordinal, n.original_transaction_id, n.product_id "
                + "FROM pending_renewal n JOIN receipt r ON r.id = n.receipt_id JOIN input_file f ON f.id = r.file_id "
                + "ORDER BY 1, 2, 3",
            "SELECT coalesce(encode(f.sha256, 'hex'), q.path), q.line, q.record_number, q.reason_code, q.message, "
                + "md5(q.excerpt) FROM quarantine q LEFT JOIN input_file f ON f.id = q.file_id ORDER BY 1, 2, 4",
        ]
        for query in queries {
            let result = try connection.query(query)
            rows.append(["-- \(query.prefix(40))"])
            rows += result.rows
        }
        return rows
    }

    /// Where a test that runs the demo through the binary has its reports written.
    var demoOut: String { directory.appendingPathComponent("out").path }

    /// `iap-audit run --demo` through the binary, on this workspace's database, its reports written to `demoOut`.
    func runTheDemoThroughTheBinary() throws -> BinaryUnderTest.Outcome {
        try BinaryUnderTest.run(
            ["run", "--demo", "--out", demoOut, "--database-url", conninfo, "--log-level", "warning"], timeout: 600)
    }
}
