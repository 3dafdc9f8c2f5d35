import AppleStandIn
import Foundation
import TestSupport
import Testing

/// The detailed financial report (`finance-detail`, region Z1) through the binary: fetched from the stand-in,
/// archived, ingested by `ingest sales`, and kept out of reconciliation, whose financial lines already count the
/// same sales from the consolidated report.
struct FetchFinanceDetailTests {
    @Test func aFetchedDetailedReportIsIngestedAndItsSalesAreNotCountedTwice() throws {
        let test = try TestWorkspace()
        let apple = try AppleFixture(test: test)
        let config = try apple.configuration(reports: ["financial", "finance-detail"])
        try apple.fetchReports(
            config: config, summarising: "finance-detail: 0 held, 11 fetched, 1 not published yet, 0 no sales")
        #expect(apple.spooledReports.contains("80012345_0125_Z1.txt.gz"), "\(apple.spooledReports)")

        let ingested = try BinaryUnderTest.run(
            ["ingest", "sales", apple.spool + "/reports", "--database-url", test.conninfo])
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect(try test.count("SELECT count(*) FROM quarantine") == 0)
        #expect(
            try test.count("SELECT count(*) FROM sales_report WHERE layout = 'finance-detail' AND region = 'Z1'") == 11)
        // Each purchase is a row of its own, on the day it was made, with the day Apple settled it.
        #expect(
            try test.count(
                """
                SELECT count(*) FROM sales_report_row r JOIN sales_report s USING (file_id)
                WHERE s.layout = 'finance-detail' AND r.units = 1 AND r.begin_date = r.end_date
                  AND r.settlement_date = r.begin_date + 2
                """) == 33)

        let reconciled = try BinaryUnderTest.run(["reconcile", "--database-url", test.conninfo])
        #expect(reconciled.status == 0, "\(reconciled.stderr)")
        // The consolidated report's 3 units a month, once: the detailed report's purchases are the same sales.
        let financial = "FROM reconciliation_line WHERE source = 'financial'"
        #expect(try test.count("SELECT coalesce(sum(reported_units), 0)::int \(financial)") == 33)
        #expect(try test.count("SELECT count(DISTINCT period_begin)::int \(financial)") == 11)
    }
}
