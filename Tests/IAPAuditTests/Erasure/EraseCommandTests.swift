import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit

/// `iap-audit erase` through the binary, over the demo's data: after an erasure a full pg_dump holds no trace of the
/// key or the token in any spelling (also inside signed payloads and quarantine excerpts), every reconciliation and
/// month-end figure is what it was, the log has its row, and a later run neither brings the key back nor moves a total.
@Suite struct EraseCommandTests {
    /// The demo's data, plus a broken line that names the account (its quarantine excerpt keeps the hash).
    struct Fixture {
        let test: TestWorkspace
        /// An app account with a flag of its own, and a token whose purchases came as signed transactions.
        let (account, token): (String, String)
        /// The report folder of the demo's run.
        var out: String { test.directory.appendingPathComponent("out").path }

        init() throws {
            test = try TestWorkspace()
            let out = test.directory.appendingPathComponent("out").path
            _ = try test.workspace.run(ExampleData.plan(examples: ReportSiteTests.examples, outputDirectory: out))
            let account = try test.connection.query(
                "SELECT subject_key FROM flag WHERE subject_kind = 'app-account' ORDER BY subject_key LIMIT 1"
            ).first(String.self, "subject_key")
            let token = try test.connection.query(
                """
                SELECT app_account_token::text AS token FROM purchase
                WHERE signed_date IS NOT NULL AND app_account_token IS NOT NULL
                GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1
                """
            ).first(String.self, "token")
            (self.account, self.token) = (account, token)
            let broken = #"{"application_username_hash": "\#(account.uppercased())", "response": {"#
            let path = try test.write("more/broken.jsonl", broken + "\n")
            #expect(try run(["ingest", "receipts", path]).status == 0)
        }

        func run(_ arguments: [String]) throws -> BinaryUnderTest.Outcome {
            try BinaryUnderTest.run(arguments + ["--database-url", test.conninfo], timeout: 300)
        }

        /// The finance figures as the reports print them, by report.
        func figures() throws -> [String: String] {
            var figures: [String: String] = [:]
            for report in ["reconciliation", "reconciliation-summary", "month-end", "month-end-bridge"] {
                let folder = test.directory.appendingPathComponent("figures-\(UUID().uuidString)").path
                let outcome = try run(["report", report, "--format", "csv", "--out", folder])
                #expect(outcome.status == 0, "\(report): \(outcome.stderr)")
                figures[report] = EraseCommandTests.withoutRowIdentities(
                    try String(contentsOfFile: folder + "/\(report).csv", encoding: .utf8))
            }
            return figures
        }

        /// How many places of a full pg_dump name each identifier, in any case, with or without dashes, plainly or
        /// inside base64url (a JWS payload, nested as a notification nests its transaction) or a bytea excerpt.
        func traces() throws -> [String: Int] {
            let dump = try GeneratedDataIngestTests.pgDump(conninfo: test.conninfo)
            var found: [String: Int] = [:]
            for text in dump.split(separator: "\n").flatMap({ EraseCommandTests.expanded(String($0)) }) {
                let lower = text.lowercased()
                for identifier in [account, token] {
                    for spelling in [identifier, identifier.replacingOccurrences(of: "-", with: "")]
                    where lower.contains(spelling) {
                        found[identifier, default: 0] += 1
                    }
                }
            }
            return found
        }
    }

    /// The report folder's files that name an identifier, in any case, by name or content (base64url included).
    struct ErasedReportsProbe {
        let directory: String
        let identifiers: [String]

        func filesNaming() throws -> Int {
            var count = 0
            for relative in try FileManager.default.subpathsOfDirectory(atPath: directory) {
                let bytes = FileManager.default.contents(atPath: directory + "/" + relative) ?? Data()
                let texts = [relative] + EraseCommandTests.expanded(String(decoding: bytes, as: UTF8.self))
                let isNaming = texts.contains { text in
                    identifiers.contains { text.lowercased().contains($0.lowercased()) }
                }
                if isNaming { count += 1 }
            }
            return count
        }
    }

    /// A report's CSV without the columns that name rows rather than amounts: a later reconcile writes the same
    /// lines under its own run (`run_id`) and new line ids (the bridge's `trace`).
    static func withoutRowIdentities(_ csv: String) -> String {
        let lines = csv.split(separator: "\r\n", omittingEmptySubsequences: false).map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        guard let header = lines.first else { return csv }
        let dropped = Set(header.indices.filter { ["run_id", "trace"].contains(header[$0]) })
        return lines.map { fields in
            fields.enumerated().filter { !dropped.contains($0.offset) }.map(\.element).joined(separator: ",")
        }.joined(separator: "\r\n")
    }

    /// `text` and every text its base64url runs decode to, three levels deep.
    static func expanded(_ text: String, depth: Int = 0) -> [String] {
        var texts = [text]
        guard depth < 3 else { return texts }
        for match in text.matches(of: /[A-Za-z0-9_-]{16,}/) {
            var base64 = match.output.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            guard let data = Data(base64Encoded: base64) else { continue }
            texts += expanded(String(decoding: data, as: UTF8.self), depth: depth + 1)
        }
        return texts
    }

    @Test func leavesNoTraceOfTheCustomerAndMovesNoTotal() throws {
        let fixture = try Fixture()
        let (account, token) = (fixture.account, fixture.token)
        let before = try fixture.figures()
        let found = try fixture.traces()
        // The search finds them before: in the records, the flags, the quarantine and the signed payloads.
        #expect((found[account] ?? 0) > 1 && (found[token] ?? 0) > 1, "\(found)")
        let signed = try fixture.test.count(
            "SELECT count(*) FROM purchase WHERE app_account_token = '\(token)' AND signed_date IS NOT NULL")
        #expect(signed > 0)
        let purchases = try fixture.test.count("SELECT count(*) FROM purchase")

        let site = ErasedReportsProbe(directory: fixture.out, identifiers: [account, token])
        #expect(try site.filesNaming() > 0, "the site has a page on the flagged account")
        let byAccount = try fixture.run([
            "erase", "--account", account, "--reference", "GDPR-17", "--as", "alice", "--reports", fixture.out,
        ])
        #expect(byAccount.status == 0, "\(byAccount.stderr)")
        #expect(byAccount.stdout.contains("erased: 1 account key(s)"), "\(byAccount.stdout)")
        #expect(byAccount.stdout.contains("quarantine 1") && byAccount.stdout.contains("flag "), "\(byAccount.stdout)")
        // Uppercase, as an app may log it: the same token.
        #expect(byAccount.stdout.contains("the report folder was written again"), "\(byAccount.stdout)")
        let byToken = try fixture.run([
            "erase", "--app-account-token", token.uppercased(), "--as", "alice", "--reports", fixture.out,
        ])
        #expect(byToken.status == 0, "\(byToken.stderr)")
        #expect(byToken.stdout.contains("purchase \(signed)"), "\(byToken.stdout)")
        for outcome in [byAccount, byToken] {
            #expect(!(outcome.stdout + outcome.stderr).lowercased().contains(account))
            #expect(!(outcome.stdout + outcome.stderr).lowercased().contains(token))
        }

        #expect(try fixture.traces() == [:])
        #expect(try site.filesNaming() == 0)
        let after = try fixture.figures()
        #expect(after == before, "changed: \(after.keys.filter { after[$0] != before[$0] })")
        #expect(try fixture.test.count("SELECT count(*) FROM purchase") == purchases)
        // The erased JWS is replaced by its SHA-256: what was signed stays provable by whoever holds it.
        #expect(try fixture.test.count("SELECT count(*) FROM receipt WHERE raw LIKE '%erased:jws-sha256:%'") > 0)
        let log = try fixture.test.connection.query(
            "SELECT actor, requested_by, reference, account_keys, rows::text AS rows FROM erasure ORDER BY id")
        #expect(log.rowCount == 2)
        #expect(try log.row(0).decode(String.self, "actor") == "alice")
        #expect(try log.row(0).decode(String.self, "reference") == "GDPR-17")
        #expect(try log.row(0).decode(String.self, "rows").contains("\"receipt\": "))
        #expect(try log.row(1).decode(String.self, "requested_by") == "app-account-token")
        // The flag stays (rule quality still counts it), under a name that is not the key.
        #expect(try fixture.test.count("SELECT count(*) FROM flag WHERE subject_key LIKE 'erased-%'") > 0)

        // A later run over the same inputs, a full detect and a rebuilt clustering bring nothing back.
        _ = try fixture.test.workspace.run(
            ExampleData.plan(examples: ReportSiteTests.examples, outputDirectory: fixture.out))
        #expect(try fixture.run(["detect", "--full", "--rebuild-store-accounts"]).status == 0)
        #expect(try fixture.run(["reconcile"]).status == 0)
        #expect(try fixture.traces() == [:])
        #expect(try site.filesNaming() == 0)
        let later = try fixture.figures()
        #expect(later == before, "changed: \(later.keys.filter { later[$0] != before[$0] })")

        // Again: harmless, says so, and is logged.
        let again = try fixture.run(["erase", "--account", account, "--as", "alice"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("nothing held this customer"), "\(again.stdout)")
        #expect(try fixture.test.count("SELECT count(*) FROM erasure") == 3)

        // Not a blacklist: a later file bringing the account back is stored normally.
        let returning = try fixture.test.write(
            "later/r.jsonl",
            #"{"application_username_hash": "\#(account)", "recorded_at": "2026-03-01T10:00:00Z", "#
                + #""response": {"status": 21003}}"# + "\n")
        #expect(try fixture.run(["ingest", "receipts", returning]).status == 0)
        #expect(try fixture.test.count("SELECT count(*) FROM receipt WHERE account_key = '\(account)'") == 1)
    }

    @Test func refusesWhatIsNotAKeyOrAToken() throws {
        let test = try TestWorkspace()
        func erase(_ arguments: [String]) throws -> BinaryUnderTest.Outcome {
            try BinaryUnderTest.run(
                ["erase"] + arguments + ["--database-url", test.conninfo, "--as", "a"], timeout: 300)
        }
        // A mistyped argument may be the raw username: refused, and never repeated.
        let username = try erase(["--account", "carol@example.com"])
        #expect(username.status == 64)
        #expect(username.stderr.contains("--account is not an account key"), "\(username.stderr)")
        #expect(!(username.stdout + username.stderr).contains("carol"))
        let token = try erase(["--app-account-token", "not-a-uuid"])
        #expect(token.status == 64 && token.stderr.contains("not a UUID"), "\(token.stderr)")
        let neither = try erase([])
        #expect(neither.status == 64 && neither.stderr.contains("needs --account"), "\(neither.stderr)")
        #expect(try test.count("SELECT count(*) FROM erasure") == 0)

        // An account nothing holds: exit 0, said plainly, logged (the request was handled).
        let unknown = try erase([
            "--account", String(repeating: "0", count: 8) + String(repeating: "-00000000", count: 7),
        ])
        #expect(unknown.status == 0, "\(unknown.stderr)")
        #expect(unknown.stdout.contains("nothing held this customer"), "\(unknown.stdout)")
        #expect(try test.count("SELECT count(*) FROM erasure") == 1)

        // The log is appended only, for the pipeline's own role too.
        #expect(throws: PostgresError.self) { try test.connection.query("DELETE FROM erasure") }
        #expect(throws: PostgresError.self) { try test.connection.query("UPDATE erasure SET actor = 'x'") }
    }
}
