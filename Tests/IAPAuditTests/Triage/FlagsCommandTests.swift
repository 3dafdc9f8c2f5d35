import Foundation
import Postgres
import TestSupport
import Testing

/// `iap-audit flags` through the binary: the queue, a flag's page, and each decision with its trail.
@Suite struct FlagsCommandTests {
    @Test func eachDecisionIsLoggedAndSetsTheStatus() throws {
        let fixture = try TriageFixture()
        let ids = try fixture.flagIDs()
        #expect(ids.count == 2)
        let (carol, dave) = (ids[0], ids[1])

        let queue = try fixture.run(["flags", "list"])
        #expect(queue.status == 0, "\(queue.stderr)")
        #expect(queue.stdout.contains("2 flags"), "\(queue.stdout)")
        #expect(queue.stdout.contains("invalid-receipts"))

        let dismissed = try fixture.run([
            "flags", "dismiss", String(carol), "--reason", "family-sharing", "--text", "her children's iPad",
            "--as", "alice",
        ])
        #expect(dismissed.status == 0, "\(dismissed.stderr)")
        #expect(dismissed.stdout.contains("dismiss (family-sharing) by alice"), "\(dismissed.stdout)")
        #expect(try fixture.trail(carol) == ("dismissed", ["dismiss:family-sharing"]))

        // The person from the environment when not given: analysts sharing a machine set IAP_AUDIT_ANALYST.
        let confirmed = try fixture.run(
            ["flags", "confirm", String(dave), "--text", "same card on 40 accounts"],
            environment: ["IAP_AUDIT_ANALYST": "bob"])
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        #expect(confirmed.stdout.contains("confirm by bob"), "\(confirmed.stdout)")
        #expect(try fixture.trail(dave).status == "confirmed")

        #expect(try fixture.run(["flags", "list"]).stdout.contains("0 flags"))
        let onlyDismissed = try fixture.run(["flags", "list", "--status", "dismissed"]).stdout
        #expect(onlyDismissed.contains("1 flag\n") && onlyDismissed.contains("dismiss by alice"), "\(onlyDismissed)")
        #expect(try fixture.run(["flags", "list", "--status", "all", "--severity", "high"]).stdout.contains("0 flags"))
        #expect(try fixture.run(["flags", "list", "--status", "all", "--older-than", "1"]).stdout.contains("0 flags"))
        #expect(try fixture.run(["flags", "list", "--status", "all", "--newer-than", "1"]).stdout.contains("2 flags"))
        let subject = try fixture.test.connection.query("SELECT subject_key FROM flag WHERE id = $1", [dave])
            .requireString(0, 0)
        let bySubject = try fixture.run(["flags", "list", "--status", "all", "--subject", subject]).stdout
        #expect(bySubject.contains("1 flag\n") && bySubject.contains("confirmed"), "\(bySubject)")

        let noted = try fixture.run(["flags", "note", String(carol), "--text", "called her", "--as", "alice"])
        #expect(noted.status == 0, "\(noted.stderr)")
        let reopened = try fixture.run(["flags", "reopen", String(carol), "--text", "the iPad story fell through"])
        #expect(reopened.status == 0, "\(reopened.stderr)")
        #expect(try fixture.trail(carol) == ("open", ["dismiss:family-sharing", "note", "reopen"]))

        let shown = try fixture.run(["flags", "show", String(carol)])
        #expect(shown.status == 0, "\(shown.stderr)")
        for expected in [
            "status: open", "\"not_authentic_receipts\": 1", "dismiss (family-sharing) by alice",
            "note by alice", "-> dismissed: called her", "reopen by",
        ] {
            #expect(shown.stdout.contains(expected), "\(expected) in \(shown.stdout)")
        }
    }

    @Test func wrongDecisionsAreRefusedAndLogNothing() throws {
        let fixture = try TriageFixture()
        let id = String(try fixture.flagIDs()[0])
        let refused: [[String]] = [
            ["flags", "dismiss", id, "--text", "no reason code"],
            ["flags", "dismiss", id, "--reason", "looked-fine"],
            ["flags", "dismiss", id, "--reason", "other"],
            ["flags", "confirm", id],
            ["flags", "confirm", id, "--reason", "tester", "--text", "x"],
            ["flags", "reopen", id, "--text", "it is open already"],
            ["flags", "note", "999999", "--text", "no such flag"],
            ["flags", "show", "999999"],
            ["flags", "list", "--rule", "no-such-rule"],
            ["flags", "list", "--severity", "dire"],
            ["flags", "list", "--status", "closed"],
        ]
        for arguments in refused {
            let outcome = try fixture.run(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.status) \(outcome.stderr)")
        }
        #expect(try fixture.test.count("SELECT count(*) FROM flag_decision") == 0)
    }

    @Test func theRuleQualityReportCountsDecisions() throws {
        let fixture = try TriageFixture()
        let ids = try fixture.flagIDs()
        _ = try fixture.run(["flags", "dismiss", String(ids[0]), "--reason", "tester", "--as", "alice"])
        _ = try fixture.run(["flags", "confirm", String(ids[1]), "--text", "fraud", "--as", "alice"])
        let report = try fixture.run(["report", "rule-quality", "--format", "csv"])
        #expect(report.status == 0, "\(report.stderr)")
        let lines = report.stdout.split(whereSeparator: \.isNewline).map(String.init)  // CSV lines end in CRLF
        #expect(
            lines.first
                == "rule,rule_version,settings,flags,confirmed,dismissed,dismissed_family_sharing,dismissed_tester,"
                + "dismissed_known_whale,dismissed_duplicate,dismissed_data_error,dismissed_other,open,"
                + "confirmed_percent,median_hours_to_decision")
        // The three rows (all, version 1, the settings the flags were decided under): two flags, one confirmed, one
        // dismissed as tester, none open.
        #expect(
            lines.filter { $0.hasPrefix("invalid-receipts,all,all,2,1,1,0,1,0,0,0,0,0,50.0,") }.count == 1,
            "\(lines)")
        #expect(
            lines.filter { $0.hasPrefix("invalid-receipts,1,all,2,1,1,0,1,0,0,0,0,0,50.0,") }.count == 1, "\(lines)")
        #expect(
            lines.filter { $0.contains("; warning_receipts=3; window_hours=24\",2,1,1,0,1,") }.count == 1, "\(lines)")
    }

    /// Flags record the `[detection.<rule>]` settings they were found with, a decision those of its flag, and the
    /// report gives a row per setting: a threshold change splits a rule's figures, each decision staying with the
    /// settings it was made under.
    @Test func theRuleQualityReportSplitsByTheSettingsFlagsWereFoundWith() throws {
        let fixture = try TriageFixture()
        let ids = try fixture.flagIDs()
        #expect(try fixture.run(["flags", "dismiss", String(ids[0]), "--reason", "tester", "--as", "a"]).status == 0)
        // A higher threshold that finds the same: the evidence is unchanged, so the dismissal stands.
        let config = try fixture.test.write("iap-audit.toml", "[detection.invalid_receipts]\nwarning_receipts = 4\n")
        let detect = try fixture.run(["detect", "--config", config])
        #expect(detect.status == 0, "\(detect.stderr)")
        let settings = try fixture.test.connection.query(
            """
            SELECT f.settings ->> 'warning_receipts', d.settings ->> 'warning_receipts', f.status
            FROM flag f LEFT JOIN flag_decision d ON d.flag_id = f.id WHERE f.rule = 'invalid-receipts' ORDER BY f.id
            """
        ).rows
        #expect(
            settings.map { [$0[0], $0[1], $0[2]] }.sorted { ($0[2] ?? "") < ($1[2] ?? "") } == [
                ["4", "3", "dismissed"], ["4", nil, "open"],
            ])

        let report = try fixture.run(["report", "rule-quality", "--format", "csv"])
        #expect(report.status == 0, "\(report.stderr)")
        let lines = report.stdout.split(whereSeparator: \.isNewline).map(String.init)
        func setting(_ warning: Int) -> String {
            "\"counted_statuses=[21002, 21003, 21010]; high_receipts=5; info_statuses=[21003]; "
                + "warning_receipts=\(warning); window_hours=24\""
        }
        // Under the defaults: the one flag decided then, dismissed as tester. Under the new threshold: the open one.
        #expect(
            lines.contains { $0.hasPrefix("invalid-receipts,all,\(setting(3)),1,0,1,0,1,0,0,0,0,0,0.0,") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("invalid-receipts,all,\(setting(4)),1,0,0,0,0,0,0,0,0,1,,") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("invalid-receipts,all,all,2,0,1,0,1,0,0,0,0,1,0.0,") }, "\(lines)")
    }
}

/// `run`'s summary counts the flags by triage status.
@Suite struct RunTriageSummaryTests {
    @Test func runCountsOpenConfirmedAndDismissedFlags() throws {
        let fixture = try TriageFixture()
        let ids = try fixture.flagIDs()
        #expect(try fixture.run(["flags", "dismiss", String(ids[1]), "--reason", "tester", "--as", "a"]).status == 0)
        let receipts = try fixture.test.write("in/more.jsonl", TriageFixture.more)
        let run = try fixture.run([
            "run", "--receipts", receipts, "--out", fixture.test.directory.appendingPathComponent("out").path,
            "--report", "rule-quality",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // dave's flag stays dismissed; carol's was never decided.
        #expect(run.stdout.contains("triage: 1 open, 0 confirmed, 1 dismissed"), "\(run.stdout)")
        #expect(try fixture.run(["flags", "confirm", String(ids[0]), "--text", "x", "--as", "a"]).status == 0)
        let again = try fixture.run([
            "run", "--out", fixture.test.directory.appendingPathComponent("out").path, "--report", "rule-quality",
        ])
        #expect(again.stdout.contains("triage: 0 open, 1 confirmed, 1 dismissed"), "\(again.stdout)")
    }
}
