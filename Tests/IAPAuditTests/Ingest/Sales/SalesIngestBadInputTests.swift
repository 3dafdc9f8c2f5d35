import Foundation
import Gzip
import IAPAudit
import Postgres
import Testing

/// Malformed reports: each bad line or file is quarantined (or recorded as a finding) with file, line and reason;
/// the rest of the file is stored.
struct SalesIngestBadInputTests {
    typealias Quarantined = TestWorkspace.Quarantined

    func findings(_ test: TestWorkspace) throws -> [String] {
        try test.connection.query("SELECT code FROM sales_report_finding ORDER BY id").rows.map { $0[0] ?? "" }
    }

    func report(_ lines: [String]) -> String {
        lines.joined(separator: "\n") + "\n"
    }

    @Test func quarantinesShortRowsBadNumbersAndBadDatesAndStoresTheRest() throws {
        let test = try TestWorkspace()
        let good = SalesTestData.row20(sku: "coins", units: 2, begin: "03/02/2014")
        var short = good.split(separator: "\t", omittingEmptySubsequences: false)
        short.removeLast(3)
        let path = try test.write(
            "S_D_80000001_20140302.txt",
            report([
                SalesTestData.header20,
                good,
                short.joined(separator: "\t"),
                SalesTestData.row20(sku: "coins", units: 1, proceeds: "0,70", begin: "03/02/2014"),
                SalesTestData.row20(sku: "coins", units: 1, begin: "02/30/2014"),
                SalesTestData.row20(sku: "gems", units: 3, begin: "03/02/2014"),
            ]))
        let summary = try test.workspace.ingestSales(paths: [path])
        #expect(summary.ingest.stored == 2)
        #expect(summary.ingest.quarantined == 3)
        #expect(
            try test.quarantined() == [
                Quarantined(line: 3, reason: "short-row"), Quarantined(line: 4, reason: "invalid-number"),
                Quarantined(line: 5, reason: "invalid-date"),
            ])
        #expect(try test.count("SELECT sum(units) FROM sales_report_row") == 5)
        let message = try test.connection.query("SELECT message, path FROM quarantine WHERE line = 3").rows.first
        #expect(message?[0] == "row has 17 fields, header has 20")
        #expect(message?[1] == path)
    }

    @Test func recordsAHeaderOnlyFileAsAFindingAndStillCoversItsDay() throws {
        let test = try TestWorkspace()
        let path = try test.write("S_D_80000001_20140303.txt", report([SalesTestData.header20]))
        let summary = try test.workspace.ingestSales(paths: [path])
        #expect(summary.ingest.filesIngested == 1)
        #expect(summary.ingest.quarantined == 0)
        #expect(try findings(test) == ["header-only"])
        // A daily report with no rows still says nothing was sold that day.
        #expect(
            try test.connection.query("SELECT begin_date::text, end_date::text FROM sales_report_period").rows
                == [["2014-03-03", "2014-03-03"]])
    }

    @Test func quarantinesAFileWithDuplicateHeaderNames() throws {
        let test = try TestWorkspace()
        let header = SalesTestData.header20 + "\tUnits"
        let path = try test.write(
            "dup.txt", report([header, SalesTestData.row20(sku: "coins", units: 1, begin: "03/02/2014") + "\t1"]))
        let summary = try test.workspace.ingestSales(paths: [path])
        #expect(summary.ingest.stored == 0)
        #expect(try test.quarantined() == [Quarantined(line: 1, reason: "duplicate-header")])
        #expect(try findings(test) == ["duplicate-header"])
    }

    @Test func recordsATotalRowsThatDisagreesWithTheRows() throws {
        let test = try TestWorkspace()
        let header = SalesTestData.financialHeader
        let row = [
            "03/02/2014", "03/29/2014", " ", " ", "coins", "2", "0.70", "1.40", "USD", "S", "1", "Dev", "Coins", " ",
            " ", "IA1", " ", "US", " ", " ", "0.99", "USD",
        ].joined(separator: "\t")
        let path = try test.write(
            "80000001_0314_US.txt", report([header, row, row, "Total_Rows\t3", "Total_Amount\t2.80", "Total_Units\t4"]))
        let summary = try test.workspace.ingestSales(paths: [path])
        #expect(summary.ingest.stored == 2)
        #expect(try findings(test) == ["total-rows-mismatch"])
        let line = try test.connection.query("SELECT line, severity FROM sales_report_finding").rows.first
        #expect(line == ["4", "warning"])
    }

    @Test func quarantinesAnEmptyFile() throws {
        let test = try TestWorkspace()
        let path = try test.write("S_D_80000001_20140304.txt", [])
        let summary = try test.workspace.ingestSales(paths: [path])
        #expect(try test.quarantined() == [Quarantined(line: 0, reason: "empty-file")])
        #expect(summary.ingest.quarantined == 1)
    }

    @Test func keepsTheRowsBeforeATruncatedGzipAndQuarantinesTheBreak() throws {
        let test = try TestWorkspace()
        var lines = [SalesTestData.header20]
        for index in 0..<3000 {
            lines.append(SalesTestData.row20(sku: "p\(index)", units: 1, begin: "03/02/2014"))
        }
        let compressed = GzipWriter.compress(Array(report(lines).utf8))
        let path = try test.write("S_D_80000001_20140302.txt.gz", Array(compressed.prefix(compressed.count / 2)))
        let summary = try test.workspace.ingestSales(paths: [path])
        #expect(summary.ingest.stored > 100)
        #expect(summary.ingest.stored < 3000)
        #expect(try test.quarantined().map(\.reason) == ["truncated-gzip"])
    }

    @Test func quarantinesACorruptGzip() throws {
        let test = try TestWorkspace()
        var compressed = GzipWriter.compress(
            Array(report([SalesTestData.header20, SalesTestData.row20(sku: "a", units: 1, begin: "03/02/2014")]).utf8))
        compressed[compressed.count - 6] ^= 0xFF  // break the CRC
        let path = try test.write("S_D_80000001_20140302.txt.gz", compressed)
        _ = try test.workspace.ingestSales(paths: [path])
        #expect(try test.quarantined().map(\.reason) == ["corrupt-gzip"])
    }

    @Test func quarantinesALineWithANulByteInsteadOfFailingTheFile() throws {
        let test = try TestWorkspace()
        var bytes = Array(report([SalesTestData.header20]).utf8)
        bytes += Array(SalesTestData.row20(sku: "a", units: 1, begin: "03/02/2014").utf8) + [0, 0x0A]
        bytes += Array(report([SalesTestData.row20(sku: "b", units: 1, begin: "03/02/2014")]).utf8)
        let path = try test.write("nul.txt", bytes)
        let summary = try test.workspace.ingestSales(paths: [path])
        #expect(summary.ingest.stored == 1)
        #expect(try test.quarantined() == [Quarantined(line: 2, reason: "nul-byte")])
    }

    @Test func ingestingTheSameFileTwiceChangesNothing() throws {
        let test = try TestWorkspace()
        let path = try test.write(
            "S_D_80000001_20140302.txt",
            report([SalesTestData.header20, SalesTestData.row20(sku: "a", units: 1, begin: "03/02/2014")]))
        _ = try test.workspace.ingestSales(paths: [path])
        let before = try SalesTestData.storedRows(test)
        let again = try test.workspace.ingestSales(paths: [path])
        #expect(again.ingest.filesAlreadyIngested == 1)
        #expect(try SalesTestData.storedRows(test) == before)
        #expect(try test.count("SELECT count(*) FROM input_file") == 1)
    }

    @Test func keepsUnknownColumnsAndHostileValuesVerbatim() throws {
        let test = try TestWorkspace()
        let header = SalesTestData.header20 + "\tNew Apple Column"
        let row =
            SalesTestData.row20(sku: "'; DROP TABLE purchase; --", units: 1, begin: "03/02/2014")
            + "\t\"quoted\" \\back{slash},"
        let path = try test.write("S_D_80000001_20140302.txt", report([header, row]))
        _ = try test.workspace.ingestSales(paths: [path])
        let stored = try test.connection.query(
            "SELECT r.vendor_identifier, c.columns->>'New Apple Column' FROM sales_report_row r "
                + "JOIN sales_report_row_columns c USING (file_id, line)"
        ).rows
        #expect(stored == [["'; DROP TABLE purchase; --", "\"quoted\" \\back{slash},"]])
        #expect(try test.count("SELECT count(*) FROM purchase") == 0)
    }
}
