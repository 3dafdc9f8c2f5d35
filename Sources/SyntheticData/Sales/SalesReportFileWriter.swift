internal import Gzip

/// Writes one Sales and Trends report as Apple delivers it since December 2018: a 28-column tab-separated file in a
/// multi-member `.txt.gz` (the header in its own member, then a member every `rowsPerMember` rows).
final class SalesReportFileWriter {
    /// One row's values, in Apple's terms.
    struct Row: Hashable {
        var sku: String
        var title: String
        var productType: String
        var units: Int
        var proceeds: String
        var customerCurrency: String
        var country: String
        var proceedsCurrency: String
        var customerPrice: String
        var parent: String
    }

    static let header = [
        "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier", "Units",
        "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code", "Currency of Proceeds",
        "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier", "Subscription", "Period", "Category",
        "CMB", "Device", "Supported Platforms", "Proceeds Reason", "Preserved Pricing", "Client", "Order Type",
    ].joined(separator: "\t")

    private let writer: GzipWriter
    private let rowsPerMember: Int
    private var rowsInMember = 0
    private var buffer: [UInt8] = []

    init(path: String, rowsPerMember: Int = 1000) throws {
        do {
            writer = try GzipWriter(path: path)
        } catch {
            throw SyntheticDataError.cannotWrite(path: path, reason: "\(error)")
        }
        self.rowsPerMember = rowsPerMember
        buffer.append(contentsOf: Self.header.utf8)
        buffer.append(0x0A)
        try flush(endingMember: true)
    }

    func append(_ row: Row, begin: String, end: String) throws {
        let fields = [
            "APPLE", "US", row.sku, "Example Inc.", row.title, " ", row.productType, String(row.units), row.proceeds,
            begin, end, row.customerCurrency, row.country, row.proceedsCurrency, " ", row.customerPrice, " ",
            row.parent, " ", " ", "Games", " ", "iPhone", "iOS", " ", " ", " ", " ",
        ]
        for (index, field) in fields.enumerated() {
            if index > 0 { buffer.append(0x09) }
            buffer.append(contentsOf: field.utf8)
        }
        buffer.append(0x0A)
        rowsInMember += 1
        if rowsInMember >= rowsPerMember {
            try flush(endingMember: true)
        } else if buffer.count >= 1 << 20 {
            try flush(endingMember: false)
        }
    }

    func close() throws {
        do {
            try flush(endingMember: true)
            try writer.close()
        } catch {
            throw SyntheticDataError.cannotWrite(path: writer.path, reason: "\(error)")
        }
    }

    private func flush(endingMember: Bool) throws {
        do {
            if !buffer.isEmpty { try writer.write(buffer) }
            if endingMember && (rowsInMember > 0 || writer.membersWritten == 0) { try writer.finishMember() }
        } catch {
            throw SyntheticDataError.cannotWrite(path: writer.path, reason: "\(error)")
        }
        buffer.removeAll(keepingCapacity: true)
        if endingMember { rowsInMember = 0 }
    }

    /// `MM/DD/YYYY` for a day number (days since 1970-01-01).
    static func reportDate(_ day: Int64) -> String {
        let (year, month, dayOfMonth) = AppleTime.civil(fromEpochDay: day)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(month))/\(two(dayOfMonth))/\(year)"
    }

    /// `YYYYMMDD` for a file name.
    static func nameDate(_ day: Int64) -> String {
        let (year, month, dayOfMonth) = AppleTime.civil(fromEpochDay: day)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)\(two(month))\(two(dayOfMonth))"
    }

    /// `YYYY-MM-DD` for the manifest.
    static func isoDate(_ day: Int64) -> String {
        let (year, month, dayOfMonth) = AppleTime.civil(fromEpochDay: day)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(dayOfMonth))"
    }
}

@available(*, unavailable)
extension SalesReportFileWriter: Sendable {}
