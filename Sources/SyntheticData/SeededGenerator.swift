/// A SplitMix64 random number generator: the same seed gives the same sequence on every platform and Swift version.
///
/// The standard library's `Int.random(in:using:)` and friends may change how they consume a generator between
/// releases, so the data generator draws only through the helpers below, which use integer arithmetic and plain IEEE
/// multiplication (no `libm`), both of which are identical everywhere.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The generator's whole state; SplitMix64 walks it by a fixed odd constant.
    package private(set) var state: UInt64

    /// Creates a generator whose sequence is fully determined by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Returns an integer in `0..<bound` (0 when `bound` is not positive); multiply-high, so one draw per call.
    package mutating func nextInt(below bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Returns an integer in `range`.
    package mutating func nextInt(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + nextInt(below: range.upperBound - range.lowerBound + 1)
    }

    /// Returns an `Int64` in `range`.
    package mutating func nextInt64(in range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(range.upperBound - range.lowerBound) &+ 1
        guard width > 1 else { return range.lowerBound }
        return range.lowerBound + Int64(next().multipliedFullWidth(by: width).high)
    }

    /// Returns a uniform double in `[0, 1)` built from the top 53 bits.
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Returns true with probability `probability`.
    package mutating func chance(_ probability: Double) -> Bool {
        nextUnit() < probability
    }

    /// Derives an independent generator, so one subsystem's draws don't shift another's sequence.
    package mutating func split() -> SeededGenerator {
        SeededGenerator(seed: next())
    }
}
