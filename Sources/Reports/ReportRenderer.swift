/// Renders a report result as the bytes of a CSV, JSON, Markdown or HTML file.
///
/// Rendering is pure: no database, no file system. Every cell, title, parameter and column name is escaped for the
/// target format, since report values come from receipts and sales reports that anyone could have crafted.
package enum ReportRenderer {
    /// The most rows an HTML page lists; CSV and JSON always hold every row.
    ///
    /// Browsers stall on tables of a few hundred thousand rows, and nobody reads that many on a page.
    static let htmlRowLimit = 10_000

    /// The most rows an HTML chart draws; a larger result gets a note instead of a chart.
    static let chartRowLimit = 10_000

    /// Renders `table` in `format`. `chart` is drawn in HTML only; the other formats carry data, not pictures.
    package static func render(_ table: ReportTable, as format: ReportFormat, chart: ChartSpec?) -> [UInt8] {
        switch format {
        case .csv: csv(table)
        case .json: json(table)
        case .md: markdown(table)
        case .html: html(table, chart: chart)
        }
    }
}

extension ReportRenderer {
    /// The cell at `index`, reading a short row's missing cells as NULL rather than trapping.
    static func cell(_ row: [String?], _ index: Int) -> String? {
        index < row.count ? row[index] : nil
    }

    /// PostgreSQL's `t`/`f` as `true`/`false`; nil for anything else.
    static func booleanText(_ value: String) -> String? {
        switch value {
        case "t", "true": "true"
        case "f", "false": "false"
        default: nil
        }
    }

    /// The text a person reads for a cell: booleans spelled out, everything else verbatim.
    static func displayText(_ value: String, kind: ColumnKind) -> String {
        kind == .boolean ? booleanText(value) ?? value : value
    }

    /// Whether `value` follows JSON's number grammar, which PostgreSQL's integer and numeric output does (apart from
    /// NaN and Infinity).
    static func isJSONNumber(_ value: String) -> Bool {
        var bytes = value.utf8[...]
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 48 && $0 <= 57 } ?? false }
        func skipDigits() -> Int {
            var count = 0
            while isDigit(bytes.first) {
                bytes.removeFirst()
                count += 1
            }
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes.removeFirst()
        } else if skipDigits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            guard skipDigits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
            guard skipDigits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// `1234567` as `1,234,567`, for row counts people read.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }

    /// "1 row", "2 rows".
    static func rowCount(_ count: Int) -> String {
        count == 1 ? "1 row" : "\(grouped(count)) rows"
    }

    /// A parameter value as shown in page headers; NULL reads as "(none)".
    static func parameterText(_ parameter: ReportTable.Parameter) -> String {
        "\(parameter.name) = \(parameter.value ?? "(none)")"
    }

    /// A rough output size, so large reports do not regrow their buffer many times.
    static func estimatedSize(_ table: ReportTable, rows: Int) -> Int {
        let cellBytes = table.rows.first.map { $0.reduce(0) { $0 + ($1?.utf8.count ?? 0) + 4 } } ?? 0
        return 4096 + min(rows, table.rows.count) * max(cellBytes, 16)
    }
}

/// The bytes of a file being rendered; its own type so its helpers cannot clash with other extensions of `[UInt8]`.
struct RenderBuffer {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    /// Appends the UTF-8 bytes of `text`.
    mutating func write(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends one byte.
    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends bytes.
    mutating func append(contentsOf more: some Sequence<UInt8>) {
        bytes.append(contentsOf: more)
    }

    /// Makes room for `capacity` bytes in total.
    mutating func reserveCapacity(_ capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends bytes.
    static func += (buffer: inout RenderBuffer, more: [UInt8]) {
        buffer.bytes.append(contentsOf: more)
    }
}
