/// An exact decimal amount from a report (`0.97`, `-19.99`, `11990.00`): money is never a `Double` here.
///
/// `text` keeps the digits as written (so `2.10` stays `2.10`) but normalised: a leading zero is added to `.97`, a `+`
/// sign and superfluous leading zeros are dropped, and negative zero is written without its sign. Equality, hashing
/// and ordering use the value, so `2.1 == 2.10`.
package struct ReportDecimal: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// How many `tenThousandths` make one unit of currency.
    package static let scale: Int64 = 10_000

    /// The normalised decimal text, e.g. `"0.97"`.
    package let text: String
    /// The value in ten-thousandths of a unit (`0.97` is `9700`), exact for up to four decimal places.
    package let tenThousandths: Int64

    /// Parses a decimal: optional sign, digits, optional fraction; surrounding spaces ignored. `nil` when it is not
    /// one, has more than four significant decimal places, or overflows.
    package init?(_ text: String) {
        guard let value = ReportDecimal(bytes: Array(text.utf8)[...]) else { return nil }
        self = value
    }

    /// Creates an amount from ten-thousandths, e.g. a sum.
    package init(tenThousandths: Int64) {
        self.tenThousandths = tenThousandths
        let magnitude = tenThousandths.magnitude
        let whole = magnitude / UInt64(ReportDecimal.scale)
        var fraction = String(magnitude % UInt64(ReportDecimal.scale))
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.count > 2, fraction.hasSuffix("0") { fraction.removeLast() }
        text = (tenThousandths < 0 ? "-" : "") + "\(whole).\(fraction)"
    }

    init?(bytes: ArraySlice<UInt8>) {
        let input = ReportBytes.trimmed(bytes)
        var index = input.startIndex
        var isNegative = false
        if index < input.endIndex, input[index] == UInt8(ascii: "-") || input[index] == UInt8(ascii: "+") {
            isNegative = input[index] == UInt8(ascii: "-")
            index += 1
        }
        let wholeStart = index
        var whole: Int64 = 0
        while index < input.endIndex, let digit = ReportBytes.digit(input[index]) {
            let (shifted, overflowA) = whole.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(Int64(digit))
            guard !overflowA, !overflowB else { return nil }
            whole = sum
            index += 1
        }
        let wholeEnd = index
        var fractionStart = index
        var fractionEnd = index
        var fraction: Int64 = 0
        if index < input.endIndex, input[index] == UInt8(ascii: ".") {
            index += 1
            fractionStart = index
            var place: Int64 = ReportDecimal.scale
            while index < input.endIndex, let digit = ReportBytes.digit(input[index]) {
                place /= 10
                // Digits past the fourth place must be zero, or the value is not exact in ten-thousandths.
                if place == 0 {
                    guard digit == 0 else { return nil }
                } else {
                    fraction += Int64(digit) * place
                }
                index += 1
            }
            fractionEnd = index
        }
        guard index == input.endIndex, wholeEnd > wholeStart || fractionEnd > fractionStart else { return nil }
        let (scaledWhole, overflowA) = whole.multipliedReportingOverflow(by: ReportDecimal.scale)
        let (magnitude, overflowB) = scaledWhole.addingReportingOverflow(fraction)
        guard !overflowA, !overflowB else { return nil }
        tenThousandths = isNegative ? -magnitude : magnitude

        var normalised: [UInt8] = []
        normalised.reserveCapacity(input.count + 1)
        if isNegative && magnitude != 0 { normalised.append(UInt8(ascii: "-")) }
        var firstSignificant = wholeStart
        while firstSignificant < wholeEnd - 1, input[firstSignificant] == UInt8(ascii: "0") { firstSignificant += 1 }
        if wholeEnd > wholeStart {
            normalised.append(contentsOf: input[firstSignificant..<wholeEnd])
        } else {
            normalised.append(UInt8(ascii: "0"))
        }
        if fractionEnd > fractionStart {
            normalised.append(UInt8(ascii: "."))
            normalised.append(contentsOf: input[fractionStart..<fractionEnd])
        }
        text = String(decoding: normalised, as: UTF8.self)
    }

    /// The normalised text.
    package var description: String { text }

    /// Compares values, not spellings.
    package static func == (lhs: ReportDecimal, rhs: ReportDecimal) -> Bool {
        lhs.tenThousandths == rhs.tenThousandths
    }

    /// Hashes the value, consistent with `==`.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(tenThousandths)
    }

    /// Orders by value.
    package static func < (lhs: ReportDecimal, rhs: ReportDecimal) -> Bool {
        lhs.tenThousandths < rhs.tenThousandths
    }
}
