/// The sales generator's ledger (`sales-manifest.json`): the report files it wrote and every discrepancy it
/// planted, with the reconciliation status each must get. Every other line must come out `matched`.
public struct SalesManifest: Codable, Sendable, Equatable {
    /// One planted discrepancy: the line it affects and the status that line must get.
    public struct Plant: Codable, Sendable, Equatable {
        /// The Pacific day (`YYYY-MM-DD`) of the daily line.
        public var day: String
        /// The vendor identifier (product id) of the line.
        public var vendorIdentifier: String
        /// The app's bundle id the line belongs to.
        public var app: String
        /// `variance`, `missing-in-report`, `missing-in-receipts`, `timing`, `unknown-product` or `parent-mismatch`.
        public var expectedStatus: String
        /// What was done to the report, for a person.
        public var note: String

        enum CodingKeys: String, CodingKey {
            case day
            case vendorIdentifier = "vendor_identifier"
            case app
            case expectedStatus = "expected_status"
            case note
        }
    }

    /// The vendor number in the file names.
    public var vendorNumber: String
    /// Daily report files written (relative paths).
    public var dailyFiles: [String]
    /// Weekly report files written (relative paths), one per full Monday–Sunday week the daily reports cover.
    public var weeklyFiles: [String]
    /// In-app purchase rows written to daily reports (excluding IA3 restores).
    public var dailySaleRows: Int
    /// Every planted discrepancy.
    public var plants: [Plant]

    enum CodingKeys: String, CodingKey {
        case vendorNumber = "vendor_number"
        case dailyFiles = "daily_files"
        case weeklyFiles = "weekly_files"
        case dailySaleRows = "daily_sale_rows"
        case plants
    }
}
