internal import AppStoreFormats
internal import Postgres

/// Renders parsed report rows into COPY rows for `sales_report_row`.
enum SalesRows {
    static let rowCopy = """
        COPY sales_report_row (file_id, line, vendor_identifier, product_type_identifier, product_type, units, \
        proceeds_per_unit, extended_proceeds, proceeds_currency, customer_price, customer_currency, country_code, \
        begin_date, end_date, apple_identifier, parent_identifier, title, subscription, period, sales_or_return, \
        promo_code, order_type, settlement_date, column_values) FROM STDIN
        """

    /// Appends one row; `scratch` is reused between rows so the `text[]` literal costs no allocation.
    static func append(
        _ row: SalesReportRow, fileID: Int, to rows: inout CopyWriter, scratch: inout [UInt8]
    ) throws(PostgresError) {
        rows.field(fileID)
        rows.field(row.line)
        rows.field(row.vendorIdentifier)
        rows.field(row.productTypeIdentifier)
        rows.field(row.productType.rawValue)
        rows.field(row.units)
        rows.field(decimal: row.proceedsPerUnit)
        rows.field(decimal: row.extendedProceeds)
        rows.field(row.proceedsCurrency)
        rows.field(decimal: row.customerPrice)
        rows.field(row.customerCurrency)
        rows.field(row.countryCode)
        rows.field(date: row.beginDate)
        rows.field(date: row.endDate)
        rows.field(row.appleIdentifier)
        rows.field(row.parentIdentifier)
        rows.field(row.title)
        rows.field(row.subscription)
        rows.field(row.period)
        rows.field(row.salesOrReturn)
        rows.field(row.promoCode)
        rows.field(row.orderType)
        rows.field(date: row.settlementDate)
        arrayLiteral(row.columns, into: &scratch)
        rows.field(verbatim: scratch)
        try rows.endRow()
    }

    /// Writes `{"v1","v2",…}` already escaped for COPY's text format: array quoting first (`\` and `"` get a
    /// backslash), then COPY's own escapes (backslash doubled, tab/LF/CR as `\t`, `\n`, `\r`).
    static func arrayLiteral(_ columns: ReportColumns, into output: inout [UInt8]) {
        output.removeAll(keepingCapacity: true)
        output.append(UInt8(ascii: "{"))
        for position in columns.indices {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "\""))
            for byte in columns.bytes(at: position) {
                switch byte {
                case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C, 0x5C, 0x5C])
                case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x5C, 0x22])
                case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                default: output.append(byte)
                }
            }
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: "}"))
    }
}

extension CopyWriter {
    /// A `numeric` field from an exact report decimal, or NULL.
    mutating func field(decimal: ReportDecimal?) {
        guard let decimal else { return field(nil as String?) }
        field(verbatim: decimal.text.utf8)
    }

    /// A `date` field (`YYYY-MM-DD`), or NULL.
    mutating func field(date: CalendarDate?) {
        guard let date else { return field(nil as String?) }
        field(verbatim: date.description.utf8)
    }
}
