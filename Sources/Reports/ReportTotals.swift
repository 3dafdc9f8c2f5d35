/// The totals an HTML page of money shows under its table: each amount column summed per currency, and the units.
///
/// A report with money carries a currency column (`currency`, `customer_currency`, …) and right of it the amounts in
/// that currency; every amount column belongs to the nearest currency column on its left. Units (`…units`,
/// `difference`, `variance`) are summed over all rows: a report that repeats a line per currency leaves them blank
/// on the repeats, so the sum counts each line once. Sums are exact decimals, never floating point.
package struct ReportTotals: Equatable, Sendable {
    /// One currency's totals: the sum of each amount column, by column name, as decimal text.
    package struct CurrencyTotal: Equatable, Sendable {
        package var currency: String
        package var sums: [String: String]
    }

    /// The amount columns, in table order.
    package var amountColumns: [String]
    /// Per currency, in alphabetical order.
    package var currencies: [CurrencyTotal]
    /// The unit columns and their sums, in table order.
    package var units: [(name: String, sum: String)]

    package static func == (lhs: ReportTotals, rhs: ReportTotals) -> Bool {
        lhs.amountColumns == rhs.amountColumns && lhs.currencies == rhs.currencies
            && lhs.units.map(\.name) == rhs.units.map(\.name) && lhs.units.map(\.sum) == rhs.units.map(\.sum)
    }

    /// The totals of `table`, or nil when it has no currency column with amounts beside it.
    package init?(_ table: ReportTable) {
        var currencyOf: [Int: Int] = [:]
        var currentCurrency: Int?
        for (index, column) in table.columns.enumerated() {
            if column.kind == .text && column.name.hasSuffix("currency") {
                currentCurrency = index
            } else if column.kind == .decimal, let currency = currentCurrency {
                currencyOf[index] = currency
            }
        }
        guard !currencyOf.isEmpty else { return nil }
        let amountIndices = currencyOf.keys.sorted()
        amountColumns = amountIndices.map { table.columns[$0].name }
        var sums: [String: [Int: ExactDecimal]] = [:]
        for row in table.rows {
            for index in amountIndices {
                guard let currency = currencyOf[index].flatMap({ ReportRenderer.cell(row, $0) }),
                    let text = ReportRenderer.cell(row, index), let value = ExactDecimal(text)
                else { continue }
                sums[currency, default: [:]][index, default: ExactDecimal()] += value
            }
        }
        currencies = sums.keys.sorted().map { currency in
            CurrencyTotal(
                currency: currency,
                sums: Dictionary(
                    uniqueKeysWithValues: (sums[currency] ?? [:]).map { (table.columns[$0.key].name, $0.value.text) }))
        }
        units = table.columns.enumerated().compactMap { index, column in
            guard column.kind == .integer,
                column.name.hasSuffix("units") || column.name == "difference" || column.name == "variance"
            else { return nil }
            var sum = ExactDecimal()
            for row in table.rows {
                if let value = ReportRenderer.cell(row, index).flatMap(ExactDecimal.init) { sum += value }
            }
            return (column.name, sum.text)
        }
    }
}

/// A decimal number kept exactly: digits as an integer and a count of decimal places.
package struct ExactDecimal: Equatable, Sendable {
    private var digits: Int = 0
    private var scale: Int = 0

    package init() {}

    /// Parses PostgreSQL's numeric and integer output (`-12`, `3.50`); nil for anything else or too many digits.
    package init?(_ text: String) {
        var bytes = text.utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes.removeFirst() }
        var digits = 0
        var scale = 0
        var seenPoint = false
        var count = 0
        for byte in bytes {
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
                continue
            }
            guard byte >= 48, byte <= 57, count < 17 else { return nil }
            digits = digits * 10 + Int(byte - 48)
            count += 1
            if seenPoint { scale += 1 }
        }
        guard count > 0 else { return nil }
        self.digits = negative ? -digits : digits
        self.scale = scale
    }

    package static func += (lhs: inout ExactDecimal, rhs: ExactDecimal) {
        let scale = max(lhs.scale, rhs.scale)
        lhs.digits = lhs.scaled(to: scale) + rhs.scaled(to: scale)
        lhs.scale = scale
    }

    private func scaled(to target: Int) -> Int {
        var value = digits
        for _ in scale..<target { value *= 10 }
        return value
    }

    /// `-1.50`, `12`, `0.00`: as many decimal places as the most precise value added.
    package var text: String {
        let sign = digits < 0 ? "-" : ""
        var magnitude = String(digits.magnitude)
        guard scale > 0 else { return sign + magnitude }
        if magnitude.count <= scale {
            magnitude = String(repeating: "0", count: scale - magnitude.count + 1) + magnitude
        }
        return sign + magnitude.dropLast(scale) + "." + magnitude.suffix(scale)
    }
}
