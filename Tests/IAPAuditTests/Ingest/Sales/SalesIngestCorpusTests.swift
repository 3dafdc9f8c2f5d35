import Foundation
import Gzip
import IAPAudit
import Postgres
import TestSupport
import Testing

/// Every real report sample in the corpus (Tests/Fixtures/corpus, see `TestCorpus`) is read: stored, or quarantined
/// with a precise reason; the same bytes as a multi-member gzip give the same rows.
struct SalesIngestCorpusTests {
    static let corpus = TestCorpus.path("sales")

    /// What ingest must make of one corpus file.
    struct Expected: Sendable, CustomTestStringConvertible {
        var file: String
        var layout: String
        var rows: Int
        var quarantined: [String] = []
        var findings: [String] = []
        var testDescription: String { file }
    }

    static let expectations: [Expected] = [
        Expected(file: "45545510_0914_CH.txt", layout: "financial", rows: 4),
        // Apple's Total_Units leaves the return out: recorded as a finding, nothing rejected.
        Expected(file: "45545510_0914_EU.txt", layout: "financial", rows: 6, findings: ["total-units-mismatch"]),
        Expected(file: "45545510_0914_JP.txt", layout: "financial", rows: 2),
        Expected(file: "S_D_85127269_20111122.txt", layout: "sales-20", rows: 4),
        Expected(file: "S_D_85127269_20120207.txt", layout: "sales-20", rows: 5),
        Expected(file: "financial_2020_appstore-sdk-go_financial.tsv", layout: "financial", rows: 2),
        Expected(file: "payments_2014-09_apple-slicer_financial_report.csv", layout: "payments-summary", rows: 3),
        Expected(file: "sales_2009-08-31_27col_alexvollmer_report.txt", layout: "sales-27", rows: 4),
        // Hand-anonymised: every row is shorter than the header.
        Expected(
            file: "sales_2010-06-01_27col_alexvollmer_report2.txt", layout: "sales-27", rows: 0,
            quarantined: ["short-row", "short-row", "short-row", "short-row"], findings: ["all-rows-rejected"]),
        Expected(file: "sales_2010-08-28_18col_scsibug_DailySales.txt", layout: "sales-18", rows: 50),
        Expected(file: "sales_2010-08-28_27col_scsibug_SampleDailySalesOldFmt.txt", layout: "sales-27", rows: 30),
        Expected(file: "sales_2010-08-29_18col_weekly_scsibug_WeeklySales.txt", layout: "sales-18", rows: 16),
        // Hand-edited: three header names joined by spaces, so required columns are missing.
        Expected(
            file: "sales_2014-12-29_22col_iscreen_reports.csv", layout: "sales-20", rows: 0,
            quarantined: ["missing-columns"], findings: ["missing-columns"]),
        Expected(file: "sales_2015-02-28_22col_mizoR_data.tsv", layout: "sales-22", rows: 2),
        Expected(file: "sales_2020-10-05_28col_appstore-sdk-go_sales.tsv", layout: "sales-28", rows: 46),
        Expected(file: "subscriber_2020-10_appstore-sdk-go_subscribers.tsv", layout: "subscriber", rows: 48),
        Expected(
            file: "subscription-event_2020-10_appstore-sdk-go_subscriptions-events.tsv", layout: "subscription-event",
            rows: 49),
        Expected(file: "subscription_2020-10_appstore-sdk-go_subscriptions.tsv", layout: "subscription", rows: 49),
    ]

    /// The shipped samples, and the unlicensed ones (only in ../shared/corpus; see `TestCorpus.unlicensed`).
    static let shippedExpectations = expectations.filter { !TestCorpus.unlicensed.contains("sales/" + $0.file) }
    static let unlicensedExpectations = expectations.filter { TestCorpus.unlicensed.contains("sales/" + $0.file) }

    @Test func everyCorpusFileHasAnExpectation() throws {
        let files = try TestCorpus.files(in: "sales")
        let available = Self.expectations.filter { TestCorpus.isAvailable("sales/" + $0.file) }
        #expect(Set(files) == Set(available.map(\.file)))
    }

    /// How a corpus file is handed to ingest: as it is, or as a multi-member gzip that must give the same rows.
    enum Packing: CaseIterable, Sendable {
        case plain
        case multiMemberGzip
    }

    @Test(arguments: shippedExpectations, Packing.allCases)
    func fileIsStoredOrQuarantinedPrecisely(_ expected: Expected, packing: Packing) throws {
        try ingest(expected, packing)
    }

    // The Tippr reports state no licence: not shipped, read from ../shared/corpus when it is there.
    @Test(
        .enabled(if: TestCorpus.hasUnlicensedSamples, "unlicensed samples, only in ../shared/corpus (absent)"),
        arguments: unlicensedExpectations, Packing.allCases)
    func unlicensedFileIsStoredOrQuarantinedPrecisely(_ expected: Expected, packing: Packing) throws {
        try ingest(expected, packing)
    }

    private func ingest(_ expected: Expected, _ packing: Packing) throws {
        switch packing {
        case .plain: try ingestPlain(expected)
        case .multiMemberGzip: try ingestMultiMemberGzip(expected)
        }
    }

    private func ingestPlain(_ expected: Expected) throws {
        let test = try TestWorkspace()
        let path = TestCorpus.path("sales/" + expected.file)
        let summary = try test.workspace.ingestSales(paths: [path])
        try check(test, expected, summary: summary, compression: "none")
    }

    private func ingestMultiMemberGzip(_ expected: Expected) throws {
        let plainTest = try TestWorkspace()
        _ = try plainTest.workspace.ingestSales(paths: [TestCorpus.path("sales/" + expected.file)])
        let test = try TestWorkspace()
        let bytes = try TestCorpus.bytes("sales/" + expected.file)
        let path = test.directory.appendingPathComponent(expected.file + ".gz").path
        try SalesTestData.writeMultiMemberGzip(bytes, to: path, members: 3)
        let summary = try test.workspace.ingestSales(paths: [path])
        try check(test, expected, summary: summary, compression: "gzip")
        #expect(try SalesTestData.storedRows(test) == SalesTestData.storedRows(plainTest))
    }

    private func check(
        _ test: TestWorkspace, _ expected: Expected, summary: SalesIngestSummary, compression: String
    ) throws {
        #expect(summary.ingest.filesIngested == 1)
        #expect(summary.ingest.stored == expected.rows)
        #expect(try test.count("SELECT count(*) FROM sales_report_row") == expected.rows)
        let report = try test.connection.query(
            "SELECT s.layout, f.compression, f.kind FROM sales_report s JOIN input_file f ON f.id = s.file_id")
        #expect(report.rows == [[expected.layout, compression, "sales"]])
        let quarantined = try test.connection.query("SELECT reason_code FROM quarantine ORDER BY line, id").rows
            .map { $0[0] ?? "" }
        #expect(quarantined == expected.quarantined)
        let findings = try test.connection.query("SELECT code FROM sales_report_finding ORDER BY id").rows
            .map { $0[0] ?? "" }
        #expect(findings == expected.findings)
    }

    @Test(.enabled(if: TestCorpus.hasUnlicensedSamples, "unlicensed sample, only in ../shared/corpus (absent)"))
    func recordsVendorFrequencyDateAndRegionFromAppleFileNames() throws {
        let test = try TestWorkspace()
        _ = try test.workspace.ingestSales(paths: [
            TestCorpus.path("sales/S_D_85127269_20111122.txt"), Self.corpus + "/45545510_0914_CH.txt",
        ])
        let rows = try test.connection.query(
            """
            SELECT name_kind, vendor_number, frequency, name_year, name_month, name_day, region FROM sales_report
            ORDER BY name_kind
            """
        ).rows
        #expect(
            rows == [
                ["financial", "45545510", nil, "2014", "9", nil, "CH"],
                ["sales", "85127269", "daily", "2011", "11", "22", nil],
            ])
    }

    @Test func keepsEveryColumnVerbatimIncludingUTF8AndPadding() throws {
        let test = try TestWorkspace()
        _ = try test.workspace.ingestSales(paths: [Self.corpus + "/sales_2010-08-28_18col_scsibug_DailySales.txt"])
        // Dates are right-padded in this file: the typed column is trimmed, the verbatim column is not.
        let row = try test.connection.query(
            """
            SELECT r.begin_date::text, c.columns->>'Begin Date', cardinality(r.column_values)
            FROM sales_report_row r JOIN sales_report_row_columns c USING (file_id, line) ORDER BY r.line LIMIT 1
            """
        ).rows
        #expect(row.first?[0] == "2010-08-28")
        #expect(row.first?[1]?.hasPrefix("08/28/2010 ") == true)
        #expect(row.first?[2] == "18")
    }
}
