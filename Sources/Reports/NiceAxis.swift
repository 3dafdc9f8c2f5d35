/// A y axis range with round tick values (steps of 1, 2 or 5 times a power of ten) that always includes zero.
struct NiceAxis: Equatable {
    /// One tick: its value and its label, written exactly (no floating-point noise such as 0.30000000000000004).
    struct Tick: Equatable {
        var value: Double
        var label: String
    }

    /// The ticks from bottom to top.
    let ticks: [Tick]
    /// The value at the bottom of the plot.
    var minimum: Double { ticks.first?.value ?? 0 }
    /// The value at the top of the plot.
    var maximum: Double { ticks.last?.value ?? 1 }

    /// An axis covering `lower...upper` and zero in about five steps; nil when the range is not finite.
    init?(lower: Double, upper: Double, targetSteps: Double = 5) {
        let low = min(lower, 0)
        var high = max(upper, 0)
        if high == low { high = low + 1 }
        let raw = (high - low) / targetSteps
        guard low.isFinite, high.isFinite, raw.isFinite, raw > 0 else { return nil }
        // The power of ten at or below `raw`, found by stepping so no math library is needed.
        var exponent = 0
        var power = 1.0
        while power * 10 <= raw {
            power *= 10
            exponent += 1
        }
        while power > raw {
            power /= 10
            exponent -= 1
        }
        let fraction = raw / power
        var mantissa = 10
        for candidate in [1, 2, 5] where fraction <= Double(candidate) {
            mantissa = candidate
            break
        }
        if mantissa == 10 {
            mantissa = 1
            exponent += 1
            power *= 10
        }
        let step = Double(mantissa) * power
        // Subnormal ranges can underflow the step; refuse rather than divide by zero.
        guard step > 0, (low / step).magnitude < 1_000, (high / step).magnitude < 1_000 else { return nil }
        let first = Int((low / step).rounded(.down))
        let last = Int((high / step).rounded(.up))
        ticks = (first...last).map { multiple in
            Tick(value: Double(multiple) * step, label: Self.decimal(multiple * mantissa, exponent: exponent))
        }
    }

    /// `digits` × 10^`exponent` written out, e.g. (25, -1) → "2.5", (3, 2) → "300".
    static func decimal(_ digits: Int, exponent: Int) -> String {
        let sign = digits < 0 ? "-" : ""
        let magnitude = String(digits.magnitude)
        if exponent >= 0 {
            guard digits != 0 else { return "0" }
            return exponent <= 15 ? sign + magnitude + String(repeating: "0", count: exponent) : "\(digits)e\(exponent)"
        }
        guard exponent >= -15 else { return "\(digits)e\(exponent)" }
        let places = -exponent
        let padded = String(repeating: "0", count: max(0, places + 1 - magnitude.count)) + magnitude
        let split = padded.index(padded.endIndex, offsetBy: -places)
        var fraction = padded[split...]
        while fraction.last == "0" { fraction.removeLast() }
        let whole = padded[..<split]
        guard digits != 0 else { return "0" }
        return fraction.isEmpty ? sign + whole : sign + whole + "." + fraction
    }
}
