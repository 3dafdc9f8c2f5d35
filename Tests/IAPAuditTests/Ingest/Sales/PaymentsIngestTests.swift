import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

/// `ingest sales` stores Apple's Payments summary typed, checks Apple's arithmetic on it and records a failed check as
/// a finding on the file; a region that cannot be read is quarantined and the rest stored (issue 33).
struct PaymentsIngestTests {
    static let sample = "sales/payments_2014-09_apple-slicer_financial_report.csv"

    static func sampleText() throws -> String {
        String(decoding: try TestCorpus.bytes(sample), as: UTF8.self)
    }

    func findings(_ test: TestWorkspace) throws -> [[String?]] {
        try test.connection.query("SELECT code, line::text FROM sales_report_finding ORDER BY id").rows
    }

    @Test func theRealSampleIsStoredTypedWithNoFinding() throws {
        let test = try TestWorkspace()
        let summary = try test.workspace.ingestSales(paths: [TestCorpus.path(Self.sample)])
        #expect(summary.ingest.stored == 3)
        #expect(summary.findingsByCode.isEmpty)
        #expect(try findings(test).isEmpty)
        #expect(
            try test.connection.query("SELECT fiscal_year, fiscal_month FROM payment_summary").rows == [["2014", "9"]])
        let regions = try test.connection.query(
            """
            SELECT line, region, currency, earned::text, withholding_tax::text, total_owed::text,
                exchange_rate::text, proceeds::text, bank_currency
            FROM payment_region ORDER BY line
            """
        ).rows
        #expect(
            regions == [
                ["4", "Switzerland", "CHF", "33.15", "0", "33.15", "0.80030", "26.53", "EUR"],
                ["5", "Euro-Zone", "EUR", "206.89", "0", "206.89", "1.00000", "206.89", "EUR"],
                ["6", "Japan", "JPY", "179", "-37", "142", "0.00817", "1.16", "EUR"],
            ])
        #expect(
            try test.connection.query("SELECT line, amount::text, currency, paid_to FROM payment_paid").rows == [
                ["8", "234.58", "EUR", "Paid to FICTIONAL BANK -****1299"]
            ])
        // Each typed region is the stored row of the same file and line: the way back to the file.
        #expect(
            try test.count(
                "SELECT count(*) FROM payment_region p JOIN sales_report_row r USING (file_id, line)") == 3)
    }

    @Test func aCopyWithOneWrongCentIsStoredWithAFindingNamingTheCheck() throws {
        let test = try TestWorkspace()
        let edited = try Self.sampleText().replacingOccurrences(of: "\"1.16\"", with: "\"1.17\"")
        let path = try test.write("financial_report.csv", edited)
        let summary = try test.workspace.ingestSales(paths: [path])
        #expect(summary.ingest.stored == 3)
        #expect(summary.findingsByCode == ["payments-proceeds-mismatch": 1, "payments-paid-total-mismatch": 1])
        #expect(try findings(test) == [["payments-proceeds-mismatch", "6"], ["payments-paid-total-mismatch", "8"]])
        let message = try test.connection.query(
            "SELECT message FROM sales_report_finding WHERE code = 'payments-proceeds-mismatch'"
        ).rows.first?.first
        #expect(message == "Japan (JPY): Proceeds is 1.17, but Total Owed 142 × Exchange Rate 0.00817 rounds to 1.16")
    }

    @Test func aRegionThatCannotBeReadIsQuarantinedAndTheOthersStored() throws {
        let test = try TestWorkspace()
        let edited = try Self.sampleText().replacingOccurrences(
            of: "\"206.89\",\"206.89\",", with: "\"lots\",\"206.89\",")
        let path = try test.write("financial_report.csv", edited)
        let summary = try test.workspace.ingestSales(paths: [path])
        #expect(summary.ingest.stored == 2)
        #expect(summary.ingest.quarantined == 1)
        #expect(try test.quarantined() == [TestWorkspace.Quarantined(line: 5, reason: "invalid-number")])
        #expect(try test.count("SELECT count(*) FROM sales_report_row") == 2)
        #expect(try test.count("SELECT count(*) FROM payment_region") == 2)
        #expect(
            try test.connection.query("SELECT rows_stored, rows_rejected FROM sales_report").rows == [["2", "1"]])
        // What Apple says it paid no longer adds up from what could be read: a finding, not silence.
        #expect(try findings(test) == [["payments-paid-total-mismatch", "8"]])
    }

    @Test func throughTheBinaryTheWrongCentIsPrintedAsAFinding() throws {
        let test = try TestWorkspace()
        let good = try test.write("good/financial_report.csv", try Self.sampleText())
        let edited = try Self.sampleText().replacingOccurrences(of: "\"26.53\"", with: "\"26.52\"")
        let bad = try test.write("bad/financial_report.csv", edited)
        let first = try BinaryUnderTest.run(["ingest", "sales", good, "--database-url", test.conninfo], timeout: 120)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stdout.contains("finding"), "\(first.stdout)")
        let second = try BinaryUnderTest.run(["ingest", "sales", bad, "--database-url", test.conninfo], timeout: 120)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("finding payments-proceeds-mismatch: 1"), "\(second.stdout)")
        #expect(second.stdout.contains("finding payments-paid-total-mismatch: 1"), "\(second.stdout)")
        #expect(try test.count("SELECT count(*) FROM payment_summary") == 2)
    }
}
