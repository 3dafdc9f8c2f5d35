/// The sales generator's ledger (`sales-manifest.json`): the report files it wrote and every discrepancy it
/// planted, with the reconciliation status each must get. Every other line must come out `matched`.
package struct SalesManifest: Codable, Sendable, Equatable {
    /// One planted discrepancy: the line it affects and the status that line must get.
    package struct Plant: Codable, Sendable, Equatable {
        /// The Pacific day (`YYYY-MM-DD`) of the daily line.
        package var day: String
        /// The vendor identifier (product id) of the line.
        package var vendorIdentifier: String
        /// The app's bundle id the line belongs to.
        package var app: String
        /// `variance`, `missing-in-report`, `missing-in-receipts`, `timing`, `unknown-product` or `parent-mismatch`.
        package var expectedStatus: String
        /// What was done to the report, for a person.
        package var note: String

        enum CodingKeys: String, CodingKey {
            case day
            case vendorIdentifier = "vendor_identifier"
            case app
            case expectedStatus = "expected_status"
            case note
        }
    }

    /// The vendor number in the file names.
    package var vendorNumber: String
    /// Daily report files written (relative paths).
    package var dailyFiles: [String]
    /// Weekly report files written (relative paths), one per full Monday–Sunday week the daily reports cover.
    package var weeklyFiles: [String]
    /// In-app purchase rows written to daily reports (excluding IA3 restores).
    package var dailySaleRows: Int
    /// Every planted discrepancy.
    package var plants: [Plant]

    enum CodingKeys: String, CodingKey {
        case vendorNumber = "vendor_number"
        case dailyFiles = "daily_files"
        case weeklyFiles = "weekly_files"
        case dailySaleRows = "daily_sale_rows"
        case plants
    }
}
