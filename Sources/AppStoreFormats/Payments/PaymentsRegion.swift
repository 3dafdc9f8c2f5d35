/// One region's line of Apple's "Payments and Financial Reports" summary, typed: what Apple earned for us there,
/// the taxes and adjustments it applied, what it owes, and what it paid after its exchange rate.
///
/// Columns are found by name (the column set varies between real files); `Units Sold`, `Pre-Tax Subtotal`,
/// `Input Tax`, `Adjustments`, `Withholding Tax` and `Bank Account Currency` may be absent or blank, and so may
/// `Exchange Rate` and `Proceeds` on a region Apple did not pay this month.
package struct PaymentsRegion: Sendable, Equatable {
    /// The 1-based line number in the file.
    package let line: Int
    /// The region as Apple names it, e.g. `Switzerland`, `Euro-Zone`.
    package let region: String
    /// The region's currency from `Region (Currency)`, e.g. `CHF`.
    package let currency: String
    /// `Units Sold`.
    package let unitsSold: Int?
    /// `Earned`: the sum of the region's financial report (Extended Partner Share).
    package let earned: PaymentsDecimal
    /// `Pre-Tax Subtotal`.
    package let preTaxSubtotal: PaymentsDecimal?
    /// `Input Tax` (added).
    package let inputTax: PaymentsDecimal
    /// `Adjustments` (signed as written).
    package let adjustments: PaymentsDecimal
    /// `Withholding Tax`, as written (Apple prints it negative, `-37`); always a deduction.
    package let withholdingTax: PaymentsDecimal
    /// `Total Owed`, in the region's currency.
    package let totalOwed: PaymentsDecimal
    /// `Exchange Rate`: bank currency per unit of the region's currency.
    package let exchangeRate: PaymentsDecimal?
    /// `Proceeds`, in the bank account's currency.
    package let proceeds: PaymentsDecimal?
    /// `Bank Account Currency`, e.g. `EUR`.
    package let bankCurrency: String?

    /// Creates a region from typed values (the generator's way in).
    package init(
        line: Int, region: String, currency: String, unitsSold: Int?, earned: PaymentsDecimal,
        preTaxSubtotal: PaymentsDecimal?, inputTax: PaymentsDecimal, adjustments: PaymentsDecimal,
        withholdingTax: PaymentsDecimal, totalOwed: PaymentsDecimal, exchangeRate: PaymentsDecimal?,
        proceeds: PaymentsDecimal?, bankCurrency: String?
    ) {
        self.line = line
        self.region = region
        self.currency = currency
        self.unitsSold = unitsSold
        self.earned = earned
        self.preTaxSubtotal = preTaxSubtotal
        self.inputTax = inputTax
        self.adjustments = adjustments
        self.withholdingTax = withholdingTax
        self.totalOwed = totalOwed
        self.exchangeRate = exchangeRate
        self.proceeds = proceeds
        self.bankCurrency = bankCurrency
    }

    /// Reads a Payments summary row (`SalesReportParser` keeps it as columns); the issue says why it cannot be
    /// stored: a required column missing or blank, a value that is not a number, a region without its currency.
    package static func read(_ row: SalesReportRow) -> Result<PaymentsRegion, ReportRowIssue> {
        var values: [String: String] = [:]
        for column in row.columns where !column.name.isEmpty {
            let key = ReportBytes.nameKey(column.name)
            if values[key] == nil { values[key] = column.value.trimmingSpaces }
        }
        func issue(_ reason: QuarantineReason, _ message: String, _ column: String) -> ReportRowIssue {
            ReportRowIssue(line: row.line, reason: reason, message: message, column: column)
        }
        func text(_ name: String) -> String? {
            values[ReportBytes.nameKey(name)].flatMap { $0.isEmpty ? nil : $0 }
        }
        func amount(_ name: String, required: Bool) -> Result<PaymentsDecimal?, ReportRowIssue> {
            guard let value = text(name) else {
                return required ? .failure(issue(.missingField, "\(name) is missing or blank", name)) : .success(nil)
            }
            guard let decimal = PaymentsDecimal(value) else {
                return .failure(issue(.invalidNumber, "\(name) is not a number (\"\(value)\")", name))
            }
            return .success(decimal)
        }
        do throws(ReportRowIssue) {
            let label = "Region (Currency)"
            guard let regionText = text(label) else {
                return .failure(issue(.missingField, "\(label) is missing or blank", label))
            }
            guard let (region, currency) = Self.regionAndCurrency(regionText) else {
                return .failure(
                    issue(.invalidValue, "\(label) is not \"Region (CUR)\" (\"\(regionText)\")", label))
            }
            let units = try amount("Units Sold", required: false).get()
            if let units, units.scale != 0 || units.digits.magnitude > UInt128(Int32.max) {
                return .failure(issue(.invalidNumber, "Units Sold is not a whole number (\"\(units)\")", "Units Sold"))
            }
            guard let earned = try amount("Earned", required: true).get(),
                let totalOwed = try amount("Total Owed", required: true).get()
            else { return .failure(issue(.missingField, "Earned or Total Owed is missing", "Earned")) }
            return .success(
                PaymentsRegion(
                    line: row.line, region: region, currency: currency, unitsSold: units.map { Int($0.digits) },
                    earned: earned, preTaxSubtotal: try amount("Pre-Tax Subtotal", required: false).get(),
                    inputTax: try amount("Input Tax", required: false).get() ?? .zero,
                    adjustments: try amount("Adjustments", required: false).get() ?? .zero,
                    withholdingTax: try amount("Withholding Tax", required: false).get() ?? .zero,
                    totalOwed: totalOwed, exchangeRate: try amount("Exchange Rate", required: false).get(),
                    proceeds: try amount("Proceeds", required: false).get(),
                    bankCurrency: text("Bank Account Currency")))
        } catch {
            return .failure(error)
        }
    }

    /// `Switzerland (CHF)` → (`Switzerland`, `CHF`); the currency is three letters.
    static func regionAndCurrency(_ text: String) -> (String, String)? {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return nil }
        let currency = text[text.index(after: open)..<text.index(before: text.endIndex)]
        let region = text[..<open].trimmingSpaces
        guard currency.utf8.count == 3, currency.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }), !region.isEmpty
        else { return nil }
        return (region, String(currency))
    }
}

/// A region row's problem ends its reading early (`Result.get()` throws it).
extension ReportRowIssue: Error {}

extension StringProtocol {
    /// Without leading and trailing spaces.
    var trimmingSpaces: String {
        var slice = Substring(self)
        while slice.first == " " { slice.removeFirst() }
        while slice.last == " " { slice.removeLast() }
        return String(slice)
    }
}
