/// Reads an App Store Connect sales, financial or subscription report one line at a time, without doing any I/O.
///
/// Feed it the file's lines in order (split on LF, trailing CR removed, numbered from 1), then call `finish()` once
/// for the findings about the file as a whole. The first non-blank line is the header; the layout is recognised from
/// its names, and columns are mapped by name, never by position. A row that cannot be understood comes back as
/// `.rejected` with a precise reason, and the rest of the file goes on.
///
/// ```swift
/// var parser = SalesReportParser()
/// for (index, line) in lines.enumerated() {
///     switch parser.consume(line: line, number: index + 1) {
///     case .row(let row): store(row)
///     case .rejected(let issue): quarantine(issue)
///     default: break
///     }
/// }
/// let findings = parser.finish()
/// ```
package struct SalesReportParser: Sendable {
    /// The layout recognised from the header; `nil` until a header has been read.
    package private(set) var layout: ReportLayout?
    /// The header's column names, trimmed, in order.
    package private(set) var columnNames: [String] = []
    /// Rows returned as `.row`.
    package private(set) var storedRowCount = 0
    /// Rows returned as `.rejected`.
    package private(set) var rejectedRowCount = 0
    /// Lines returned as `.skipped` because the header is unusable.
    package private(set) var skippedLineCount = 0

    /// "18, 20, 21, 22, 24, 27 or 28": the SKU layouts' column counts, as the finding names them.
    static var knownColumnCountsText: String {
        let counts = ReportLayout.knownSalesColumnCounts.keys.sorted().map(String.init)
        return counts.dropLast().joined(separator: ", ") + " or " + (counts.last ?? "")
    }

    /// True once the header has turned out unusable: the remaining lines will all be `.skipped`, so a caller may
    /// stop reading and call `finish()`.
    package var isSkippingRows: Bool { phase == .skipping }

    private enum Phase: Sendable {
        case awaitingHeader, rows, paymentsColumns, paymentsRows, skipping
    }

    /// What the trailer and the rows add up to, for checking one against the other.
    private struct Totals: Sendable {
        var units = 0
        var salesUnits = 0
        var extendedProceeds: Int64 = 0
        var extendedProceedsOverflowed = false
        var rowsTrailer: (value: Int, line: Int)?
        var unitsTrailer: (value: Int, line: Int)?
        var amountTrailer: (value: ReportDecimal, line: Int)?
        var invalidTrailers: [ReportFinding] = []

        var hasTrailer: Bool {
            rowsTrailer != nil || unitsTrailer != nil || amountTrailer != nil || !invalidTrailers.isEmpty
        }
    }

    private var phase = Phase.awaitingHeader
    private var header: ReportHeader?
    private var headerLine: [UInt8] = []
    private var headerLineNumber = 0
    private var totals = Totals()
    private var repeatedHeaderLines: [Int] = []

    /// Creates a parser for one file.
    package init() {}

    /// Reads the next line (without its LF or trailing CR) and says what it is; `number` is its 1-based line number.
    package mutating func consume(line: ArraySlice<UInt8>, number: Int) -> ReportLineResult {
        switch phase {
        case .awaitingHeader:
            return ReportBytes.isBlank(line) ? .blank : readHeader(line, number: number)
        case .skipping:
            if ReportBytes.isBlank(line) { return .blank }
            skippedLineCount += 1
            return .skipped
        case .rows:
            if ReportBytes.isBlank(line) { return .blank }
            if let header { return readRow(line, number: number, header: header) }
            return .skipped
        case .paymentsColumns, .paymentsRows:
            return readPaymentsLine(line, number: number)
        }
    }

    /// Ends the file and returns what was found about it as a whole: header problems, a file with no rows, and a
    /// financial report's `Total_*` lines checked against its rows.
    package mutating func finish() -> [ReportFinding] {
        guard let layout else {
            return [
                ReportFinding(
                    code: QuarantineReason.emptyFile.rawValue, message: "the file has no header and no rows",
                    severity: .warning)
            ]
        }
        if let problem = header?.problem {
            let notParsed =
                skippedLineCount == 1 ? "1 data line not parsed" : "\(skippedLineCount) data lines not parsed"
            return [
                ReportFinding(
                    code: problem.reason.rawValue, message: "\(problem.message) (\(notParsed))", line: headerLineNumber,
                    severity: .error
                )
            ]
        }
        var findings: [ReportFinding] = []
        if storedRowCount + rejectedRowCount == 0 {
            findings.append(
                ReportFinding(code: "header-only", message: "the file has a header but no data rows", severity: .info)
            )
        }
        if storedRowCount == 0 && rejectedRowCount > 0 {
            findings.append(
                ReportFinding(
                    code: "all-rows-rejected",
                    message: "all \(rejectedRowCount) data rows were rejected, so the file contributes no rows",
                    severity: .warning
                )
            )
        }
        if case .sales(let columnCount) = layout, ReportLayout.knownSalesColumnCounts[columnCount] == nil {
            findings.append(
                ReportFinding(
                    code: "unfamiliar-column-count",
                    message: "SKU layout with \(columnCount) columns; known layouts have "
                        + Self.knownColumnCountsText + " (all columns are kept by name)",
                    line: headerLineNumber, severity: .info
                )
            )
        }
        if !repeatedHeaderLines.isEmpty {
            let lines = repeatedHeaderLines.prefix(10).map(String.init).joined(separator: ", ")
            findings.append(
                ReportFinding(
                    code: "repeated-header",
                    message: "the header line is repeated \(repeatedHeaderLines.count) time(s), at line(s) \(lines)"
                        + (repeatedHeaderLines.count > 10 ? ", …" : "") + "; the repeats were not read as rows",
                    line: repeatedHeaderLines[0], severity: .info
                )
            )
        }
        // Apple documents the Total_* lines for the financial report; the detailed one is checked when it has them.
        if layout == .financial || (layout == .financeDetail && totals.hasTrailer) { findings += trailerFindings() }
        return findings
    }

    // MARK: - Header

    private mutating func readHeader(_ line: ArraySlice<UInt8>, number: Int) -> ReportLineResult {
        var text = line
        // A UTF-8 byte order mark, as some editors and spreadsheet exports write it.
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        headerLineNumber = number
        if ReportBytes.contains(text, "Payments and Financial Reports") {
            layout = .paymentsSummary
            phase = .paymentsColumns
            return .header(.paymentsSummary)
        }
        var bounds: [UInt32] = []
        let (fieldCount, _) = ReportBytes.tabBounds(text, into: &bounds)
        let names = (0..<fieldCount).map { index in
            let start = text.startIndex + Int(bounds[2 * index])
            let end = text.startIndex + Int(bounds[2 * index + 1])
            return String(decoding: ReportBytes.trimmed(text[start..<end]), as: UTF8.self)
        }
        if fieldCount == 1, ReportBytes.contains(text, "Region (Currency)") {
            // A Payments summary whose title line was cut off: this is already its column line.
            layout = .paymentsSummary
            phase = .paymentsColumns
            return readPaymentsLine(line, number: number)
        }
        let header = ReportHeader(names: names)
        self.header = header
        layout = header.layout
        columnNames = names
        headerLine = Array(line)
        phase = header.problem == nil ? .rows : .skipping
        return .header(header.layout)
    }

    // MARK: - Rows

    private mutating func readRow(_ line: ArraySlice<UInt8>, number: Int, header: ReportHeader) -> ReportLineResult {
        let layout = header.layout
        if layout.hasTotals, line.starts(with: ReportBytes.totalPrefix) {
            return readTrailer(line, number: number)
        }
        if line.count == headerLine.count, line.elementsEqual(headerLine) {
            // Concatenated downloads repeat the header; it is not a row.
            repeatedHeaderLines.append(number)
            return .header(layout)
        }
        var bounds: [UInt32] = []
        bounds.reserveCapacity(header.names.count * 2 + 2)
        let (fieldCount, highBits) = ReportBytes.tabBounds(line, into: &bounds)
        let expected = header.names.count
        if fieldCount < expected {
            return reject(number, .shortRow, "row has \(fieldCount) fields, header has \(expected)")
        }
        if fieldCount > expected {
            let extras = RowFields(line: line, bounds: bounds)
            // A trailing tab (an empty extra field) loses nothing; any value past the header might be misplaced.
            guard (expected..<fieldCount).allSatisfy({ ReportBytes.isBlank(extras[$0]) }) else {
                return reject(number, .longRow, "row has \(fieldCount) fields, header has \(expected)")
            }
            bounds.removeLast(2 * (fieldCount - expected))
        }
        let fields = RowFields(line: line, bounds: bounds)
        if highBits != 0 {
            for index in 0..<expected where fields[index].contains(where: { $0 >= 0x80 }) {
                if String(validating: fields[index], as: UTF8.self) == nil {
                    return reject(
                        number, .invalidUTF8, "\(header.names[index]) is not valid UTF-8", header.names[index])
                }
            }
        }
        switch RowReader(fields: fields, header: header).read(line: number, storage: Array(line)) {
        case .rejected(let issue):
            rejectedRowCount += 1
            return .rejected(issue)
        case .row(let row):
            storedRowCount += 1
            tally(row)
            return .row(row)
        }
    }

    private mutating func tally(_ row: SalesReportRow) {
        totals.units &+= row.units
        if row.salesOrReturn == "S" { totals.salesUnits &+= row.units }
        if let extended = row.extendedProceeds {
            let (sum, overflow) = totals.extendedProceeds.addingReportingOverflow(extended.tenThousandths)
            totals.extendedProceeds = sum
            totals.extendedProceedsOverflowed = totals.extendedProceedsOverflowed || overflow
        }
    }

    private mutating func reject(
        _ line: Int, _ reason: QuarantineReason, _ message: String, _ column: String? = nil
    )
        -> ReportLineResult
    {
        rejectedRowCount += 1
        return .rejected(ReportRowIssue(line: line, reason: reason, message: message, column: column))
    }

    // MARK: - Financial trailer

    private mutating func readTrailer(_ line: ArraySlice<UInt8>, number: Int) -> ReportLineResult {
        var bounds: [UInt32] = []
        let (fieldCount, _) = ReportBytes.tabBounds(line, into: &bounds)
        let fields = RowFields(line: line, bounds: bounds)
        let name = String(decoding: ReportBytes.trimmed(fields[0]), as: UTF8.self)
        let valueBytes = fieldCount > 1 ? ReportBytes.trimmed(fields[1]) : []
        let value = String(decoding: valueBytes, as: UTF8.self)
        func invalid(_ kind: String) {
            totals.invalidTrailers.append(
                ReportFinding(
                    code: "invalid-trailer", message: "\(name) is not \(kind) (\"\(value)\")", line: number,
                    severity: .warning
                )
            )
        }
        switch name {
        case "Total_Rows":
            if let count = ReportBytes.integer(valueBytes) {
                totals.rowsTrailer = (count, number)
            } else {
                invalid("a whole number")
            }
        case "Total_Units":
            if let count = ReportBytes.integer(valueBytes) {
                totals.unitsTrailer = (count, number)
            } else {
                invalid("a whole number")
            }
        case "Total_Amount":
            if let amount = ReportDecimal(bytes: valueBytes) {
                totals.amountTrailer = (amount, number)
            } else {
                invalid("a decimal number")
            }
        default:
            break
        }
        return .trailer(ReportTrailer(line: number, name: name, value: value))
    }

    private func trailerFindings() -> [ReportFinding] {
        var findings = totals.invalidTrailers
        let rowsRead = storedRowCount + rejectedRowCount
        let rejectedNote = rejectedRowCount == 0 ? "" : " (\(rejectedRowCount) rejected rows not counted)"
        guard let rows = totals.rowsTrailer else {
            findings.append(
                ReportFinding(
                    code: "missing-trailer",
                    message: "financial report has no Total_Rows line, so it may be truncated (\(rowsRead) rows read)",
                    severity: .warning
                )
            )
            return findings
        }
        if rows.value != rowsRead {
            findings.append(
                ReportFinding(
                    code: "total-rows-mismatch",
                    message: "Total_Rows says \(rows.value), the file has \(rowsRead) data rows "
                        + "(\(storedRowCount) stored, \(rejectedRowCount) rejected)",
                    line: rows.line, severity: .warning
                )
            )
        }
        if let units = totals.unitsTrailer, units.value != totals.units {
            let explanation: String
            let severity: ReportFinding.Severity
            if units.value == totals.salesUnits {
                explanation =
                    "; \(units.value) equals the sum over sales rows only, so Apple's total leaves returns out"
                severity = .info
            } else {
                explanation = "; the sales rows alone sum to \(totals.salesUnits)"
                severity = .warning
            }
            findings.append(
                ReportFinding(
                    code: "total-units-mismatch",
                    message: "Total_Units says \(units.value), the rows' quantities sum to \(totals.units)"
                        + explanation + rejectedNote,
                    line: units.line, severity: severity
                )
            )
        }
        if let amount = totals.amountTrailer, !totals.extendedProceedsOverflowed,
            amount.value.tenThousandths != totals.extendedProceeds
        {
            findings.append(
                ReportFinding(
                    code: "total-amount-mismatch",
                    message: "Total_Amount says \(amount.value.text), the rows' Extended Partner Share sums to "
                        + ReportDecimal(tenThousandths: totals.extendedProceeds).text + rejectedNote,
                    line: amount.line, severity: .warning
                )
            )
        }
        return findings
    }

    // MARK: - Payments summary

    /// The Payments summary is CSV with quoting, one title line, one column line, one row per region, then footers.
    private mutating func readPaymentsLine(_ line: ArraySlice<UInt8>, number: Int) -> ReportLineResult {
        let fields = ReportBytes.csvFields(line)
        let isBlank: ([UInt8]) -> Bool = { ReportBytes.isBlank($0[...]) }
        if fields.allSatisfy(isBlank) { return .blank }
        if phase == .paymentsColumns {
            columnNames = fields.map { String(decoding: ReportBytes.trimmed($0[...]), as: UTF8.self) }
            phase = .paymentsRows
            return .header(.paymentsSummary)
        }
        if isBlank(fields[0]) {
            let value = fields.filter { !isBlank($0) }
                .map { String(decoding: ReportBytes.trimmed($0[...]), as: UTF8.self) }
                .joined(separator: " ")
            return .trailer(ReportTrailer(line: number, name: "", value: value))
        }
        storedRowCount += 1
        return .row(SalesReportRow(line: number, columns: ReportColumns(names: columnNames, values: fields)))
    }
}
