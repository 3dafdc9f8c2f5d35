import Foundation
import Postgres
import TestSupport
import Testing

/// The decision log cannot be altered, by the pipeline's role or the analyst's; the analyst's only write is a decision.
@Suite struct TriageLogProtectionTests {
    static let alterations = [
        "UPDATE flag_decision SET reason = 'tester'", "DELETE FROM flag_decision", "TRUNCATE flag_decision",
    ]

    @Test func thePipelinesRoleCannotAlterTheLog() throws {
        let fixture = try TriageFixture()
        let id = try fixture.flagIDs()[0]
        _ = try fixture.test.connection.query(
            "SELECT * FROM flag_decide($1, 'dismiss', 'known-whale', '', 'alice')", [id])
        // The test's connection is the pipeline's own role, which owns the table.
        #expect(
            try fixture.test.connection.query(
                "SELECT tableowner = current_user FROM pg_tables WHERE tablename = $1",
                ["flag_decision"]
            ).bool(0, 0) == true)
        for sql in Self.alterations {
            let error = #expect(throws: PostgresError.self, "\(sql)") {
                try fixture.test.connection.execute(script: sql)
            }
            #expect(error?.sqlState == "42501", "\(sql): \(error.map { "\($0)" } ?? "")")
        }
        #expect(try fixture.trail(id) == ("dismissed", ["dismiss:known-whale"]))
    }

    @Test func theAnalystDecidesAndCanWriteNothingElse() throws {
        let fixture = try TriageFixture()
        let id = try fixture.flagIDs()[0]
        let connection = fixture.test.connection
        try connection.execute(script: "SET ROLE iap_audit_analyst")
        defer { _ = try? connection.execute(script: "RESET ROLE") }

        _ = try connection.query("SELECT * FROM flag_decide($1, 'confirm', NULL, 'seen it before', 'erin')", [id])
        let refused =
            Self.alterations + [
                "INSERT INTO flag_decision (flag_id, action, actor, rule, rule_version, finding_sha256, status_after) "
                    + "VALUES (\(id), 'note', 'mallory', 'x', 1, 'x', 'open')",
                "UPDATE flag SET status = 'dismissed'", "DELETE FROM flag", "INSERT INTO flag SELECT * FROM flag",
                "UPDATE receipt_summary SET status = 0", "SELECT flag_reopen_changed('invalid-receipts', 1)",
                "ALTER TABLE flag_decision DISABLE TRIGGER USER",
                "DROP TRIGGER flag_decision_no_update_or_delete ON flag_decision",
            ]
        for sql in refused {
            let error = #expect(throws: PostgresError.self, "\(sql)") { try connection.execute(script: sql) }
            #expect(error?.sqlState == "42501", "\(sql): \(error.map { "\($0)" } ?? "")")
        }
        // Every table and view: not one the analyst may insert into, update, delete from or truncate; and no function
        // running with the owner's rights but flag_decide.
        let writable = try connection.query(
            """
            SELECT c.relname FROM pg_class c
            WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'v', 'm', 'p')
              AND has_table_privilege('iap_audit_analyst', c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')
            """
        ).rows
        #expect(writable.isEmpty, "\(writable)")
        let definers = try connection.query(
            """
            SELECT p.proname FROM pg_proc p
            WHERE p.pronamespace = 'public'::regnamespace AND p.prosecdef
              AND has_function_privilege('iap_audit_analyst', p.oid, 'EXECUTE')
            """
        ).rows.map { $0[0] ?? "" }
        #expect(definers == ["flag_decide"])
        try connection.execute(script: "RESET ROLE")
        #expect(try fixture.trail(id) == ("confirmed", ["confirm"]))
    }

    @Test func anAnalystTriagesThroughTheBinaryAndIsRefusedThePipeline() throws {
        let fixture = try TriageFixture()
        let id = String(try fixture.flagIDs()[0])
        let listed = try fixture.run(["flags", "list"], asAnalyst: true)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("2 flags"))
        let dismissed = try fixture.run(
            ["flags", "dismiss", id, "--reason", "duplicate", "--as", "erin"], asAnalyst: true)
        #expect(dismissed.status == 0, "\(dismissed.stderr)")
        #expect(try fixture.trail(Int64(id) ?? 0) == ("dismissed", ["dismiss:duplicate"]))
        #expect(try fixture.run(["flags", "show", id], asAnalyst: true).stdout.contains("dismiss (duplicate) by erin"))
        // The pipeline's commands are not the analyst's: they refuse as a permission (77), saying whose they are,
        // not as an internal error (70).
        let out = try TemporaryDirectory()
        for command in [
            ["detect"], ["reconcile"], ["report", "quarantine"], ["report", "--all", "--out", out.url.path],
        ] {
            let outcome = try fixture.run(command, asAnalyst: true)
            #expect(outcome.status == 77, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.contains("this login's role may not do that"), "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.contains("as the pipeline's role"), "\(command): \(outcome.stderr)")
        }
        // `evidence export` refuses as a permission too, in its own words: a bundle holds the records only that role
        // reads. Nothing is written.
        let subject = try fixture.test.connection.query(
            "SELECT subject_kind || ':' || subject_key FROM flag WHERE id = $1", [Int64(id) ?? 0]
        ).requireString(0, 0)
        let bundle = out.url.appendingPathComponent("bundle").path
        let export = try fixture.run(["evidence", "export", subject, "--out", bundle], asAnalyst: true)
        #expect(export.status == 77, "\(export.stderr)")
        #expect(export.stderr.contains("an evidence bundle holds the stored records"), "\(export.stderr)")
        #expect(export.stderr.contains("export with its login"), "\(export.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bundle))
        #expect(try fixture.test.count("SELECT count(*) FROM flag_decision") == 1)
    }
}
