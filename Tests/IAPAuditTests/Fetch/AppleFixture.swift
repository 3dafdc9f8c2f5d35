import AppleStandIn
import Crypto
import Foundation
import Gzip
import SyntheticData
import TestSupport
import Testing

/// A stand-in for Apple with a year of the generator's daily sales reports (2025), a financial report per month and
/// the detailed financial report of the same sales, a key file for it, and a configuration naming them: what the
/// fetch tests drive the binary with.
final class AppleFixture {
    static let vendor = "80012345"
    static let keyID = "2X9R4HXF34"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
    /// Days of 2025 Apple has no report for: a day without sales.
    static let daysWithoutSales = ["20250310", "20250311"]

    let test: TestWorkspace
    let standIn: AppleStandIn
    let url: String
    let key: P256.Signing.PrivateKey
    let keyPath: String
    let spool: String

    init(test: TestWorkspace) throws {
        self.test = test
        key = P256.Signing.PrivateKey()
        keyPath = test.directory.appendingPathComponent("AuthKey_\(Self.keyID).p8").path
        try Self.writeKey(key, to: keyPath)
        spool = test.directory.appendingPathComponent("spool").path
        standIn = AppleStandIn(
            connectKey: .init(keyID: Self.keyID, issuerID: Self.issuerID, publicKey: key.publicKey),
            vendorNumber: Self.vendor)
        try Self.loadYear(into: standIn, scratch: test.directory.appendingPathComponent("apple-source").path)
        url = try standIn.start()
    }

    deinit { standIn.stop() }

    /// Writes a PEM private key the way Apple's .p8 is: PKCS#8, owner-only.
    static func writeKey(_ key: P256.Signing.PrivateKey, to path: String, mode: Int = 0o600) throws {
        try Data(key.pemRepresentation.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    /// 2025's daily reports from the generator, less the days without sales, and a small financial report for each
    /// month; Apple has published through 2025-12-30.
    static func loadYear(into standIn: AppleStandIn, scratch: String) throws {
        guard let start = CalendarDay(year: 2025, month: 1, day: 1) else { return }
        let files = try SalesBulkReportWriter(rows: 365 * 4, days: 365, seed: 5).write(
            to: scratch, startDay: start, vendorNumber: vendor)
        for file in files {
            let name = URL(fileURLWithPath: file).lastPathComponent
            guard !daysWithoutSales.contains(where: { name.contains($0) }) else { continue }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch + "/" + file))
            standIn.addReport(name, bytes: Array(bytes))
        }
        for month in 1...12 {
            let name = "\(vendor)_\(String(format: "%02d", month))25_ZZ.txt.gz"
            standIn.addReport(name, bytes: GzipWriter.compress(Array(financialReport(month: month).utf8)))
            let detail = "\(vendor)_\(String(format: "%02d", month))25_Z1.txt.gz"
            standIn.addReport(detail, bytes: GzipWriter.compress(Array(financeDetailReport(month: month).utf8)))
        }
        standIn.publish(through: "2025-12-30")
    }

    /// A financial report of one row, with Apple's trailer.
    static func financialReport(month: Int) -> String {
        let header = [
            "Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
            "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
            "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
            "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
            "Customer Price", "Customer Currency",
        ]
        let date = String(format: "%02d/01/2025", month)
        let row = [
            date, String(format: "%02d/28/2025", month), "", "", "com.example.bulk0.item0", "3", "0.70", "2.10", "USD",
            "S", "1234567", "Example Inc.", "Item", "", "", "IA1", "", "US", "", "", "0.99", "USD",
        ]
        return header.joined(separator: "\t") + "\n" + row.joined(separator: "\t") + "\nTotal_Rows\t1\n"
            + "Total_Amount\t2.10\nTotal_Units\t3\n"
    }

    /// The detailed financial report (region Z1) of the same month: the financial report's three units as the three
    /// purchases they were, each with the day it was made and the day Apple settled it.
    static func financeDetailReport(month: Int) -> String {
        let rows = [1, 9, 20].map { day in
            ReportHeaders.financeDetailRow(
                transaction: String(format: "%02d/%02d/2025", month, day),
                settlement: String(format: "%02d/%02d/2025", month, day + 2), vendor: "com.example.bulk0.item0")
        }
        return ([ReportHeaders.financeDetail] + rows).joined(separator: "\n") + "\n"
    }

    /// A configuration file fetching `reports` of 2025 through `until` from the stand-in.
    func configuration(
        reports: [String] = ["sales-daily", "financial"], until: String = "2025-12-31", extra: String = "",
        keyPath: String? = nil
    ) throws -> String {
        let text = """
            [database]
            url = "\(test.conninfo)"

            [apple.connect]
            issuer_id = "\(Self.issuerID)"
            key_id = "\(Self.keyID)"
            private_key_file = "\(keyPath ?? self.keyPath)"
            vendor_number = "\(Self.vendor)"
            reports = [\(reports.map { "\"\($0)\"" }.joined(separator: ", "))]
            since = "2025-01-01"
            until = "\(until)"
            url = "\(url)"

            [apple]
            spool = "\(spool)"
            \(extra)
            """
        return try test.write("iap-audit-\(UUID().uuidString.prefix(8)).toml", text)
    }

    /// Runs `fetch reports` with `config`, expecting it to succeed and its summary to say `summary` (e.g.
    /// `"financial: 0 held, 11 fetched, 1 not published yet, 0 no sales"`).
    @discardableResult
    func fetchReports(config: String, summarising summary: String) throws -> BinaryUnderTest.Outcome {
        let result = try BinaryUnderTest.run(["fetch", "reports", "--config", config])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(summary), "\(result.stdout)")
        return result
    }

    /// The files the spool's reports folder holds (hidden ones too).
    var spooledReports: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: spool + "/reports")) ?? []).sorted()
    }

    /// The stand-in's report requests so far.
    var reportRequests: [String] {
        standIn.requests.filter { $0.hasPrefix("/v1/salesReports") || $0.hasPrefix("/v1/financeReports") }
    }
}
