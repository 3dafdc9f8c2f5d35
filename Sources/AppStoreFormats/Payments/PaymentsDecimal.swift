/// An exact decimal of the Payments summary (`33.15`, `-37`, `0.80030`): money and exchange rates are never a
/// `Double` here, and an exchange rate may carry more decimals than `ReportDecimal`'s four.
///
/// The value is `digits / 10^scale`; `scale` is the number of decimals as written (so `0.80030` keeps five, which
/// says how precisely Apple printed the rate). Equality compares values, so `0.8003 == 0.80030`.
package struct PaymentsDecimal: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The most decimals accepted; Apple prints five for rates and two (or none) for money.
    package static let maximumScale = 12

    /// The unscaled value: `3315` for `33.15`.
    package let digits: Int128
    /// Decimals after the point.
    package let scale: Int

    /// Creates `digits / 10^scale`.
    package init(digits: Int128, scale: Int) {
        self.digits = digits
        self.scale = scale
    }

    /// Parses `-37`, `206.89`, `0.00817`, `+1.5`, `.5` and thousands separators (`1,234.56`, as a spreadsheet
    /// writes them inside quotes); surrounding spaces ignored. `nil` when it is not a number, has more than
    /// `maximumScale` decimals or overflows.
    package init?(_ text: some StringProtocol) {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, first == UInt8(ascii: " ") { bytes.removeFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") { bytes.removeLast() }
        var isNegative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            isNegative = sign == UInt8(ascii: "-")
            bytes.removeFirst()
        }
        var digits: Int128 = 0
        var scale = 0
        var seenPoint = false
        var digitCount = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (shifted, overflowA) = digits.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = shifted.addingReportingOverflow(Int128(byte - UInt8(ascii: "0")))
                guard !overflowA, !overflowB else { return nil }
                digits = sum
                digitCount += 1
                if seenPoint { scale += 1 }
            case UInt8(ascii: "."):
                guard !seenPoint else { return nil }
                seenPoint = true
            case UInt8(ascii: ","):
                guard !seenPoint, digitCount > 0 else { return nil }
            default:
                return nil
            }
        }
        // 24 digits keep every parsed value exact when rescaled to `maximumScale` decimals.
        guard digitCount > 0, digitCount <= 24, scale <= Self.maximumScale else { return nil }
        self.init(digits: isNegative ? -digits : digits, scale: scale)
    }

    /// Zero, with no decimals.
    package static let zero = PaymentsDecimal(digits: 0, scale: 0)

    /// The same value with `scale` decimals (`scale` at least the current one); `nil` on overflow.
    package func rescaled(to scale: Int) -> PaymentsDecimal? {
        guard scale >= self.scale else { return nil }
        var value = digits
        for _ in self.scale..<scale {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = shifted
        }
        return PaymentsDecimal(digits: value, scale: scale)
    }

    /// `self + other`, exactly; `nil` on overflow.
    package func adding(_ other: PaymentsDecimal) -> PaymentsDecimal? {
        let scale = max(self.scale, other.scale)
        guard let lhs = rescaled(to: scale), let rhs = other.rescaled(to: scale) else { return nil }
        let (sum, overflow) = lhs.digits.addingReportingOverflow(rhs.digits)
        return overflow ? nil : PaymentsDecimal(digits: sum, scale: scale)
    }

    /// `self × other`, exactly; `nil` on overflow or when the product needs more than `2 × maximumScale` decimals.
    package func multiplied(by other: PaymentsDecimal) -> PaymentsDecimal? {
        let (product, overflow) = digits.multipliedReportingOverflow(by: other.digits)
        return overflow ? nil : PaymentsDecimal(digits: product, scale: scale + other.scale)
    }

    /// The value negated.
    package var negated: PaymentsDecimal { PaymentsDecimal(digits: -digits, scale: scale) }

    /// The absolute value.
    package var magnitude: PaymentsDecimal { digits < 0 ? negated : self }

    /// Rounded to `places` decimals, halves away from zero (commercial rounding, as Apple's amounts are).
    package func rounded(toPlaces places: Int) -> PaymentsDecimal {
        guard scale > places else { return rescaled(to: places) ?? self }
        var divisor: Int128 = 1
        for _ in places..<scale { divisor *= 10 }
        let (quotient, remainder) = digits.quotientAndRemainder(dividingBy: divisor)
        let isHalfOrMore = remainder.magnitude * 2 >= divisor.magnitude
        let rounded = isHalfOrMore ? quotient + (digits < 0 ? -1 : 1) : quotient
        return PaymentsDecimal(digits: rounded, scale: places)
    }

    /// Half a unit in the last written decimal: how far the true value may lie from the printed one (`0.000005` for
    /// `0.80030`).
    package var halfLastPlace: PaymentsDecimal { PaymentsDecimal(digits: 5, scale: scale + 1) }

    /// The value as a `Double`, for ordering values too large to compare exactly and for nothing else.
    private var approximation: Double {
        var value = Double(digits)
        for _ in 0..<scale { value /= 10 }
        return value
    }

    /// The value with its decimals as scaled, e.g. `-0.37`, `26.53`, `0.80030`.
    package var description: String {
        let magnitude = digits.magnitude
        var text = String(magnitude)
        if scale > 0 {
            if text.count <= scale { text = String(repeating: "0", count: scale - text.count + 1) + text }
            text.insert(".", at: text.index(text.endIndex, offsetBy: -scale))
        }
        return (digits < 0 ? "-" : "") + text
    }

    /// Compares values, not spellings.
    package static func == (lhs: PaymentsDecimal, rhs: PaymentsDecimal) -> Bool {
        compare(lhs, rhs) == 0
    }

    /// Hashes the value with trailing zeros removed, consistent with `==`.
    package func hash(into hasher: inout Hasher) {
        var value = digits
        var scale = self.scale
        while scale > 0, value % 10 == 0 {
            value /= 10
            scale -= 1
        }
        hasher.combine(value)
        hasher.combine(scale)
    }

    /// Orders by value.
    package static func < (lhs: PaymentsDecimal, rhs: PaymentsDecimal) -> Bool {
        compare(lhs, rhs) < 0
    }

    private static func compare(_ lhs: PaymentsDecimal, _ rhs: PaymentsDecimal) -> Int {
        let scale = max(lhs.scale, rhs.scale)
        // Only products of huge values overflow when rescaled; they are far apart, so an approximation orders them.
        guard let left = lhs.rescaled(to: scale), let right = rhs.rescaled(to: scale) else {
            return lhs.approximation < rhs.approximation ? -1 : 1
        }
        return left.digits == right.digits ? 0 : (left.digits < right.digits ? -1 : 1)
    }
}
