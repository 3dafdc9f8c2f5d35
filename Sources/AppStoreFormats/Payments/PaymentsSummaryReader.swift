/// Reads the typed content of a "Payments and Financial Reports" summary beside `SalesReportParser` (which
/// recognises the file and keeps each region row's columns) and checks Apple's own arithmetic.
///
/// Feed it the title line, every row the parser returns, and every footer; `findings()` then says which checks
/// failed, each on its line:
///
/// - `payments-total-owed-mismatch`: Total Owed ≠ Earned + Input Tax + Adjustments − Withholding Tax (withholding
///   is a deduction whatever its printed sign);
/// - `payments-proceeds-mismatch`: Proceeds ≠ Total Owed × Exchange Rate rounded to the cent (halves away from
///   zero), allowing only for the rate's own printed precision;
/// - `payments-paid-total-mismatch`: the paid footer (`"234.58" EUR`) ≠ the sum of that currency's Proceeds;
/// - `payments-month-unknown`: the title names no month, so the payment cannot be placed in a fiscal month.
package struct PaymentsSummaryReader: Sendable {
    /// An amount Apple says it paid: a footer like `"234.58" EUR`, and the account line after it.
    package struct Paid: Sendable, Equatable {
        /// The footer's line.
        package let line: Int
        /// The amount paid.
        package let amount: PaymentsDecimal
        /// Its currency.
        package let currency: String
        /// Apple's masked account line (`Paid to FICTIONAL BANK -****1299`), when one follows.
        package var paidTo: String?
    }

    /// The fiscal year and month the title names (`(September, 2014)`), if it names one.
    package private(set) var fiscalMonth: (year: Int, month: Int)?
    /// The title line as written, without the commas of its empty columns.
    package private(set) var title: String?
    /// The regions read, in file order.
    package private(set) var regions: [PaymentsRegion] = []
    /// The paid footers, in file order.
    package private(set) var paid: [Paid] = []
    /// Rows that could not be read as a region (quarantined by the caller, not stored).
    package private(set) var rejectedRowCount = 0

    /// A reader for one file.
    package init() {}

    /// Reads what `SalesReportParser` made of one line of a Payments summary, and returns it, or `.rejected` for a
    /// row that cannot be read as a region (so that the caller quarantines it instead of storing it).
    package mutating func observe(_ result: ReportLineResult, line: ArraySlice<UInt8>) -> ReportLineResult {
        switch result {
        case .header:
            readHeaderLine(line)
        case .row(let row):
            if let issue = read(row) { return .rejected(issue) }
        case .trailer(let footer):
            read(footer)
        case .blank, .rejected, .skipped:
            break
        }
        return result
    }

    /// Reads a line the parser took for a header: the title line (`iTunes Connect - Payments and Financial
    /// Reports\t(September, 2014)`) is kept, the column line ignored.
    package mutating func readHeaderLine(_ line: ArraySlice<UInt8>) {
        guard title == nil, ReportBytes.contains(line, "Payments and Financial Reports") else { return }
        let text = ReportBytes.csvFields(line).map { String(decoding: $0, as: UTF8.self) }
            .filter { !$0.trimmingSpaces.isEmpty }.joined(separator: " ")
        title = text.replacingTabs
        fiscalMonth = Self.month(inTitle: text)
    }

    /// Reads one region row; an issue means the row cannot be stored (the caller quarantines it).
    package mutating func read(_ row: SalesReportRow) -> ReportRowIssue? {
        switch PaymentsRegion.read(row) {
        case .success(let region):
            regions.append(region)
            return nil
        case .failure(let issue):
            rejectedRowCount += 1
            return issue
        }
    }

    /// Reads a footer: a paid amount with its currency, or the account line that follows one.
    package mutating func read(_ footer: ReportTrailer) {
        let parts = footer.value.split(separator: " ")
        if parts.count == 2, let amount = PaymentsDecimal(parts[0]), parts[1].utf8.count == 3 {
            paid.append(Paid(line: footer.line, amount: amount, currency: String(parts[1]), paidTo: nil))
        } else if !paid.isEmpty, paid[paid.count - 1].paidTo == nil {
            paid[paid.count - 1].paidTo = footer.value
        }
    }

    /// The checks that failed (none for a file whose arithmetic holds).
    package func findings() -> [ReportFinding] {
        var findings: [ReportFinding] = []
        if fiscalMonth == nil {
            findings.append(
                ReportFinding(
                    code: "payments-month-unknown",
                    message: "the title (\"\(title ?? "")\") names no month like \"(September, 2014)\"; the "
                        + "payment is stored but belongs to no fiscal month", line: title == nil ? nil : 1,
                    severity: .warning))
        }
        for region in regions {
            findings += Self.check(region)
        }
        findings += paidTotalFindings()
        return findings
    }

    /// Total Owed and Proceeds of one region against Apple's formulas.
    package static func check(_ region: PaymentsRegion) -> [ReportFinding] {
        var findings: [ReportFinding] = []
        let name = "\(region.region) (\(region.currency))"
        if let expected = region.earned.adding(region.inputTax)?.adding(region.adjustments)?
            .adding(region.withholdingTax.magnitude.negated), expected != region.totalOwed
        {
            findings.append(
                ReportFinding(
                    code: "payments-total-owed-mismatch",
                    message: "\(name): Total Owed is \(region.totalOwed), but Earned \(region.earned) + Input Tax "
                        + "\(region.inputTax) + Adjustments \(region.adjustments) − Withholding Tax "
                        + "\(region.withholdingTax.magnitude) = \(expected)", line: region.line, severity: .warning))
        }
        if let rate = region.exchangeRate, let proceeds = region.proceeds,
            let range = proceedsRange(totalOwed: region.totalOwed, rate: rate), !range.contains(proceeds)
        {
            let expected = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range)"
            findings.append(
                ReportFinding(
                    code: "payments-proceeds-mismatch",
                    message: "\(name): Proceeds is \(proceeds), but Total Owed \(region.totalOwed) × Exchange Rate "
                        + "\(rate) rounds to \(expected)", line: region.line, severity: .warning))
        }
        return findings
    }

    /// The cents Proceeds may be: Total Owed times any rate that prints as `rate`, rounded to the cent. A rate
    /// printed with five decimals hides up to half a unit of the fifth, which on a large total moves the cents.
    package static func proceedsRange(
        totalOwed: PaymentsDecimal, rate: PaymentsDecimal
    ) -> ClosedRange<PaymentsDecimal>? {
        guard let low = rate.adding(rate.halfLastPlace.negated), let high = rate.adding(rate.halfLastPlace),
            let first = totalOwed.multiplied(by: low)?.rounded(toPlaces: 2),
            let second = totalOwed.multiplied(by: high)?.rounded(toPlaces: 2)
        else { return nil }
        // A negative total (an adjustment larger than the earnings) turns the bounds round.
        return min(first, second)...max(first, second)
    }

    /// Each paid footer against the sum of the Proceeds of the regions paid in its currency.
    private func paidTotalFindings() -> [ReportFinding] {
        var findings: [ReportFinding] = []
        for payment in paid {
            let paidRegions = regions.filter { ($0.bankCurrency ?? payment.currency) == payment.currency }
            var sum = PaymentsDecimal.zero
            for region in paidRegions {
                guard let proceeds = region.proceeds, let next = sum.adding(proceeds) else { continue }
                sum = next
            }
            if sum != payment.amount {
                findings.append(
                    ReportFinding(
                        code: "payments-paid-total-mismatch",
                        message: "Apple says it paid \(payment.amount) \(payment.currency), but the Proceeds of the "
                            + "\(paidRegions.count) regions paid in \(payment.currency) sum to \(sum)",
                        line: payment.line, severity: .warning))
            }
        }
        return findings
    }

    private static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]

    /// `… (September, 2014)` → (2014, 9); also `(Sep 2014)`.
    package static func month(inTitle title: String) -> (year: Int, month: Int)? {
        guard let open = title.lastIndex(of: "("), let close = title.lastIndex(of: ")"), open < close else {
            return nil
        }
        let words = title[title.index(after: open)..<close].split { $0 == "," || $0 == " " || $0 == "\t" }
        guard words.count == 2, let year = Int(words[1]), (2000...2200).contains(year) else { return nil }
        let word = words[0].lowercased()
        guard word.count >= 3, let index = monthNames.firstIndex(where: { $0.hasPrefix(word) }) else { return nil }
        return (year, index + 1)
    }
}

extension String {
    /// Tabs as spaces (the title holds one between its two parts).
    fileprivate var replacingTabs: String {
        String(map { $0 == "\t" ? " " : $0 })
    }
}
