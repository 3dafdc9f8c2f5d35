import Foundation
import Gzip
import Postgres
import TestSupport

/// Builders for report files in tests.
enum SalesTestData {
    /// Writes `bytes` as a gzip file of `members` members, split at arbitrary byte positions (mid-line, as Apple's
    /// concatenated downloads can be).
    static func writeMultiMemberGzip(_ bytes: [UInt8], to path: String, members: Int) throws {
        let writer = try GzipWriter(path: path)
        let size = max(1, (bytes.count + members - 1) / members)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            try writer.write(bytes[start..<end])
            try writer.finishMember()
            start = end
        }
        try writer.close()
    }

    /// The SKU-layout header of 2011 (20 columns).
    static let header20 = ReportHeaders.sales20

    /// The header of a Financial Report (22 columns, Total_ trailers after the rows).
    static let financialHeader = ReportHeaders.financial

    /// One 20-column row; dates `MM/DD/YYYY`.
    static func row20(
        sku: String, type: String = "IA1", units: Int, proceeds: String = "0.70", begin: String, end: String? = nil,
        currency: String = "USD", price: String = "0.99", parent: String = " "
    ) -> String {
        [
            "APPLE", "US", sku, "Example Inc.", "Title", " ", type, String(units), proceeds, begin, end ?? begin,
            currency, "US", currency, "123456789", price, " ", parent, " ", " ",
        ].joined(separator: "\t")
    }

    /// Every stored row's canonical and verbatim columns, in line order, for comparing two ingests.
    static func storedRows(_ test: TestWorkspace) throws -> [[String?]] {
        try test.connection.query(
            """
            SELECT line, vendor_identifier, product_type_identifier, units, proceeds_per_unit::text, begin_date::text,
                end_date::text, column_values::text FROM sales_report_row ORDER BY line
            """
        ).rows
    }
}
