import AppStoreFormats
import Foundation
import Gzip
import TestSupport
import Testing

struct LineReaderTests {
    @Test func splitsOnLineFeedsAndStripsCarriageReturns() throws {
        let fixture = try TemporaryDirectory()
        let events = try fixture.events(Array("a\r\nbb\n\r\n\nc\r\n".utf8), maxLineLength: 100)
        #expect(events == [.line(1, "a"), .line(2, "bb"), .line(3, ""), .line(4, ""), .line(5, "c")])
    }

    @Test func returnsFinalLineWithoutNewline() throws {
        let fixture = try TemporaryDirectory()
        #expect(try fixture.events(Array("a\nlast".utf8), maxLineLength: 100) == [.line(1, "a"), .line(2, "last")])
        #expect(try fixture.events(Array("a\nlast\r".utf8), maxLineLength: 100) == [.line(1, "a"), .line(2, "last")])
    }

    @Test func keepsCarriageReturnsInsideALine() throws {
        let fixture = try TemporaryDirectory()
        #expect(try fixture.events(Array("a\rb\n".utf8), maxLineLength: 100) == [.line(1, "a\rb")])
    }

    @Test func yieldsNothingForAnEmptyFile() throws {
        let fixture = try TemporaryDirectory()
        #expect(try fixture.events([], maxLineLength: 100).isEmpty)
        #expect(try fixture.events(GzipWriter.compress([]), maxLineLength: 100).isEmpty)
    }

    @Test func readsGzipLikePlainText() throws {
        let fixture = try TemporaryDirectory()
        let text = Array("Provider\tSKU\r\nAPPLE\tcoins\r\n".utf8)
        let expected: [Event] = [.line(1, "Provider\tSKU"), .line(2, "APPLE\tcoins")]
        #expect(try fixture.events(GzipWriter.compress(text), maxLineLength: 100) == expected)
    }

    @Test func acceptsALineOfExactlyTheMaximumLength() throws {
        let fixture = try TemporaryDirectory()
        let line = String(repeating: "x", count: 10)
        let events = try fixture.events(Array("\(line)\r\n\(line)x\r\n\(line)".utf8), maxLineLength: 10)
        #expect(events == [.line(1, line), .overlong(2, 11, line), .line(3, line)])
    }

    @Test(arguments: [false, true])
    func skipsAnOverlongLineAndKeepsCounting(gzip: Bool) throws {
        let fixture = try TemporaryDirectory()
        let long = [UInt8](repeating: UInt8(ascii: "y"), count: 5_000_000)
        let text = Array("header\n".utf8) + long + Array("\r\nafter\nend".utf8)
        let events = try fixture.events(gzip ? GzipWriter.compress(text) : text, maxLineLength: 1 << 20)
        #expect(
            events == [
                .line(1, "header"), .overlong(2, 5_000_000, String(repeating: "y", count: 4_096)), .line(3, "after"),
                .line(4, "end"),
            ])
    }

    @Test func reportsAnOverlongLastLineWithoutNewline() throws {
        let fixture = try TemporaryDirectory()
        let text = Array("a\n".utf8) + [UInt8](repeating: UInt8(ascii: "z"), count: 700_000)
        let events = try fixture.events(text, maxLineLength: 1_000)
        #expect(events == [.line(1, "a"), .overlong(2, 700_000, String(repeating: "z", count: 1_000))])
    }

    @Test(arguments: [1, 50, 300])
    func matchesASimpleSplitterOnRandomLineLengths(maxLineLength: Int) throws {
        let fixture = try TemporaryDirectory()
        // Lines around the limit, over a total that spans several 256 KiB reads, catch boundary mistakes.
        var generator = SplitMix(seed: UInt64(maxLineLength))
        var text: [UInt8] = []
        while text.count < 1_500_000 {
            let length = Int(generator.next() % UInt64(maxLineLength * 2 + 3))
            text += [UInt8](repeating: UInt8(ascii: "a") + UInt8(text.count % 26), count: length)
            text += generator.next() % 3 == 0 ? [0x0D, 0x0A] : [0x0A]
        }
        let expected = Self.split(text, maxLineLength: maxLineLength)
        #expect(Self.difference(try fixture.events(text, maxLineLength: maxLineLength), expected) == nil)
        let compressed = GzipWriter.compress(text)
        #expect(Self.difference(try fixture.events(compressed, maxLineLength: maxLineLength), expected) == nil)
    }

    @Test func reportsTheInProgressLineWhenGzipIsTruncated() throws {
        let fixture = try TemporaryDirectory()
        let lines = (1...50_000).map { "2014-03-\($0 % 28 + 1)\tcom.example.coins\t\($0)" }
        let compressed = GzipWriter.compress(Array(lines.joined(separator: "\n").utf8))
        let path = try fixture.write(Array(compressed.prefix(compressed.count / 2)), to: "truncated.txt.gz")
        let reader = LineReader(file: try DecodedFile(path: path), maxLineLength: 1_000)
        var count = 0
        let error = #expect(throws: LineReaderError.self) {
            while case .line(let number, let bytes) = try reader.next() {
                #expect(number == count + 1)
                #expect(String(decoding: bytes, as: UTF8.self) == lines[number - 1])
                count = number
            }
        }
        #expect(count > 0)
        #expect(error?.line == count + 1)
        #expect(error?.underlying.kind == .truncated)
        #expect(error?.description.hasPrefix("line \(count + 1): gzip data ends in the middle of a member") == true)
    }

    @Test func readsACorpusReportGzippedAsTwoMembersByteForByte() throws {
        let fixture = try TemporaryDirectory()
        let original = try TestCorpus.bytes("sales/sales_2009-08-31_27col_alexvollmer_report.txt")
        let path = fixture.path("sales_2009-08-31_27col_alexvollmer_report.txt.gz")
        let writer = try GzipWriter(path: path)
        // Split in the middle of a line, as Apple's member boundaries need not fall on line ends.
        try writer.write(original[..<(original.count / 2)])
        try writer.finishMember()
        try writer.write(original[(original.count / 2)...])
        try writer.close()
        #expect(writer.membersWritten == 2)

        let reader = LineReader(file: try DecodedFile(path: path), maxLineLength: 1 << 20)
        var rebuilt: [UInt8] = []
        var count = 0
        while let event = try reader.next() {
            guard case .line(let number, let bytes) = event else {
                Issue.record("unexpected \(event)")
                break
            }
            count = number
            rebuilt += bytes + [0x0A]
        }
        #expect(count > 1)
        #expect(rebuilt == original)
    }

    /// The reference: split on LF, drop one trailing CR, classify by length.
    private static func split(_ text: [UInt8], maxLineLength: Int) -> [Event] {
        var pieces = text.split(separator: 0x0A, omittingEmptySubsequences: false)
        if pieces.last?.isEmpty == true { pieces.removeLast() }
        return pieces.enumerated().map { index, piece in
            let line = piece.last == 0x0D ? piece.dropLast() : piece
            guard line.count > maxLineLength else { return Event(.line(number: index + 1, bytes: line)) }
            let prefix = Array(line.prefix(min(maxLineLength, 4_096)))
            return Event(.overlong(number: index + 1, length: line.count, prefix: prefix))
        }
    }

    /// The first differing event, or nil; keeps failure messages short for thousands of events.
    private static func difference(_ actual: [Event], _ expected: [Event]) -> String? {
        guard actual != expected else { return nil }
        guard let index = (0..<min(actual.count, expected.count)).first(where: { actual[$0] != expected[$0] }) else {
            return "\(actual.count) events instead of \(expected.count)"
        }
        return "event \(index): \(actual[index]) instead of \(expected[index])"
    }
}

/// A `LineEvent` copied out of the reader's buffer, so events can be collected and compared.
private struct Event: Equatable, CustomStringConvertible {
    let event: LineEvent

    init(_ event: LineEvent) {
        switch event {
        case .line(let number, let bytes):
            self.event = .line(number: number, bytes: ArraySlice(Array(bytes)))
        case .overlong:
            self.event = event
        }
    }

    static func line(_ number: Int, _ text: String) -> Event {
        Event(.line(number: number, bytes: ArraySlice(text.utf8)))
    }

    static func overlong(_ number: Int, _ length: Int, _ prefix: String) -> Event {
        Event(.overlong(number: number, length: length, prefix: Array(prefix.utf8)))
    }

    var description: String {
        switch event {
        case .line(let number, let bytes):
            return "line \(number): \(String(decoding: bytes, as: UTF8.self).debugDescription)"
        case .overlong(let number, let length, let prefix):
            return "overlong \(number): \(length) bytes, prefix of \(prefix.count)"
        }
    }
}

/// Pseudo-random numbers with a fixed seed, so failures reproduce.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Reading what a test wrote into its temporary directory (removed when the test ends).
extension TemporaryDirectory {
    /// Writes `bytes` to a fresh file and reads all its events.
    fileprivate func events(_ bytes: [UInt8], maxLineLength: Int) throws -> [Event] {
        let path = try write(bytes, to: UUID().uuidString)
        let reader = LineReader(file: try DecodedFile(path: path), maxLineLength: maxLineLength)
        var events: [Event] = []
        while let event = try reader.next() {
            events.append(Event(event))
        }
        return events
    }
}
