import Testing

@testable import SyntheticData

/// The random stream is pinned: if these change, every generated data set and every number derived from it changes.
struct SeededGeneratorTests {
    @Test func matchesSplitMix64ReferenceOutputs() {
        var generator = SeededGenerator(seed: 1_234_567)
        let outputs = (0..<5).map { _ in generator.next() }
        #expect(
            outputs == [
                6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
                4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
            ])
    }

    @Test func boundedDrawsStayInRange() {
        var generator = SeededGenerator(seed: 99)
        for bound in [1, 2, 3, 7, 1000, Int.max] {
            for _ in 0..<1000 {
                let value = generator.nextInt(below: bound)
                #expect(value >= 0 && value < bound)
            }
        }
        for _ in 0..<1000 {
            #expect((5...9).contains(generator.nextInt(in: 5...9)))
            #expect((-3...3).contains(generator.nextInt64(in: -3...3)))
            let unit = generator.nextUnit()
            #expect(unit >= 0 && unit < 1)
        }
    }

    @Test func splitStreamsAreIndependentOfLaterDraws() {
        var first = SeededGenerator(seed: 5)
        var second = SeededGenerator(seed: 5)
        var childOfFirst = first.split()
        var childOfSecond = second.split()
        _ = first.next()  // Drawing from the parent must not move the child.
        #expect((0..<10).map { _ in childOfFirst.next() } == (0..<10).map { _ in childOfSecond.next() })
    }
}
