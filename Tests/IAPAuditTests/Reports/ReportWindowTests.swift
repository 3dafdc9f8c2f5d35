import Foundation
import Postgres
import Reports
import Testing

@testable import IAPAudit

/// The reports `run` writes cover the configured window of days; asked for by name, a report covers all history.
struct ReportWindowTests {
    /// Markdown: the title and every row in one readable file.
    static let format: ReportFormat = .md

    /// Two reconciliation lines, one in January and one in March 2014 (58 days apart).
    func workspaceWithOldAndNewLines() throws -> TestWorkspace {
        let test = try TestWorkspace()
        for day in ["2014-01-02", "2014-03-01"] {
            try test.connection.query(
                """
                INSERT INTO reconciliation_line (source, frequency, period_begin, period_end, vendor_identifier,
                    recorded_units, recorded_trials, reported_units, difference, status, time_zone)
                VALUES ('sales', 'daily', $1::date, $1::date, 'coins', 1, 0, 2, 1, 'variance', 'UTC')
                """, [day])
        }
        return test
    }

    /// The Markdown file the batch wrote for report `name`.
    func written(_ name: String, in directory: String) throws -> String {
        try String(contentsOfFile: directory + "/" + name + "." + Self.format.fileExtension, encoding: .utf8)
    }

    func periods(_ table: ReportTable) -> [String] {
        let column = table.columns.firstIndex { $0.name == "period_begin" } ?? 0
        return table.rows.compactMap { $0[column] }.sorted()
    }

    @Test func aWindowLeavesOutRowsOlderThanItsDays() throws {
        let test = try workspaceWithOldAndNewLines()
        let runner = ReportRunner(connection: test.connection)
        let definition = try ReportRunner.definition(named: "reconciliation")
        #expect(periods(try runner.run(definition, parameters: ["window": "35"])) == ["2014-03-01"])
        #expect(periods(try runner.run(definition, parameters: ["window": "59"])).count == 2)
        // 0, or no window (a report asked for by name), is all history.
        #expect(periods(try runner.run(definition, parameters: ["window": "0"])).count == 2)
        #expect(periods(try runner.run(definition, parameters: [:])).count == 2)
        let summary = try ReportRunner.definition(named: "reconciliation-summary")
        #expect(try runner.run(summary, parameters: ["window": "35"]).rows.count == 1)
    }

    @Test func theBatchWritesTheWindowAndSaysSo() throws {
        let test = try workspaceWithOldAndNewLines()
        let output = test.directory.appendingPathComponent("out").path
        var plan = RunPlan(outputDirectory: output)
        plan.reports = ["reconciliation", "store-accounts"]
        plan.reportFormats = [Self.format]
        _ = try test.workspace.writeReports(plan)
        let windowed = try written("reconciliation", in: output)
        #expect(windowed.contains("(last 35 days)"))
        #expect(windowed.contains("2014-03-01") && !windowed.contains("2014-01-02"))
        // Store accounts are listed by their last purchase: the batch lists those active in the window.
        #expect(try written("store-accounts", in: output).contains("(last 35 days)"))

        plan.reportWindow = 0
        _ = try test.workspace.writeReports(plan)
        let all = try written("reconciliation", in: output)
        #expect(!all.contains("(last 35 days)"))
        #expect(all.contains("2014-03-01") && all.contains("2014-01-02"))
    }

    /// The site written with the batch shows the window's flags too: subject pages for those only, and it says so.
    @Test func theSiteCoversTheWindowsFlagsOnly() throws {
        let test = try TestWorkspace()
        for (key, day) in [("old-account", "2014-01-02"), ("new-account", "2014-03-01")] {
            try test.connection.query(
                """
                INSERT INTO flag (rule, rule_version, severity, subject_kind, subject_key, window_start, window_end,
                    score, evidence)
                VALUES ('purchase-velocity', 1, 'warning', 'app-account', $1, $2::timestamptz, $2::timestamptz, 1, '{}')
                """, [key, day])
        }
        // A flag without a window (a receipt without a recorded time) is dated by its creation, today: it is listed,
        // and does not move the window's end away from the data's.
        try test.connection.query(
            """
            INSERT INTO flag (rule, rule_version, severity, subject_kind, subject_key, score, evidence)
            VALUES ('sandbox-in-production', 1, 'warning', 'receipt', '7', 1, '{}')
            """)
        let output = test.directory.appendingPathComponent("out").path
        _ = try test.workspace.writeSite(to: output, runID: nil, reportFiles: [], window: 35)
        var pages = try FileManager.default.contentsOfDirectory(atPath: output + "/subjects")
        #expect(pages.sorted() == ["app-account-new-account.html", "receipt-7.html"])
        let flags = try String(contentsOfFile: output + "/flags.html", encoding: .utf8)
        #expect(flags.contains("last 35 days") && flags.contains("new-account") && !flags.contains("old-account"))

        _ = try test.workspace.writeSite(to: output, runID: nil, reportFiles: [], window: 0)
        pages = try FileManager.default.contentsOfDirectory(atPath: output + "/subjects")
        #expect(pages.sorted() == ["app-account-new-account.html", "app-account-old-account.html", "receipt-7.html"])
    }
}
