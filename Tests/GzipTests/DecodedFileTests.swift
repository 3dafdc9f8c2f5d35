import Foundation
import Gzip
import TestSupport
import Testing

struct DecodedFileTests {
    /// Plain text passes through unchanged (read in 10,000-byte chunks); a single-member gzip is decoded.
    @Test(arguments: [false, true])
    func readsTheWholeFilePlainOrGzip(isGzip: Bool) throws {
        let directory = try TemporaryDirectory()
        let text = TestData.text(lines: 20_000)
        let stored = isGzip ? GzipWriter.compress(text) : text
        let path = try directory.write(stored, to: isGzip ? "report.txt.gz" : "report.txt")
        let file = try DecodedFile(path: path)
        let (bytes, error) = isGzip ? TestData.drain(file) : TestData.drain(file, chunk: 10_000)
        #expect(file.isGzip == isGzip)
        #expect(error == nil)
        #expect(TestData.difference(bytes, text) == nil)
        #expect(file.decodedByteOffset == text.count)
        #expect(file.compressedBytesRead == stored.count)
    }

    @Test func decodesEveryMemberOfMultiMemberFile() throws {
        let directory = try TemporaryDirectory()
        let first = TestData.text(lines: 500, seed: 0)
        let third = TestData.text(lines: 700, seed: 1_000)
        let members = GzipWriter.compress(first) + GzipWriter.compress([]) + GzipWriter.compress(third)
        let path = try directory.write(members, to: "S_D_1_20190101.txt.gz")
        let (bytes, error) = try TestData.decode(path)
        #expect(error == nil)
        #expect(TestData.difference(bytes, first + third) == nil)
    }

    @Test(arguments: [1, 7, 4_096, 1_000_000])
    func decodesMembersLargerThanTheInputBufferInAnyChunkSize(chunk: Int) throws {
        let directory = try TemporaryDirectory()
        // Incompressible members of ~600 KB each cross several refills of the 256 KiB input buffer.
        let parts = (0..<3).map { TestData.random(count: 600_000 + $0, seed: UInt64($0 + 1)) }
        let path = try directory.write(parts.flatMap { GzipWriter.compress($0) }, to: "random.gz")
        let (bytes, error) = try TestData.decode(path, chunk: chunk)
        #expect(error == nil)
        #expect(TestData.difference(bytes, parts.flatMap { $0 }) == nil)
    }

    @Test(arguments: [-1, 0, 1])
    func decodesMemberWhoseMagicStraddlesTheInputBufferBoundary(shift: Int) throws {
        let directory = try TemporaryDirectory()
        // Size the first member so the second begins exactly around the end of the first buffer load.
        let target = DecodedFile.inputBufferSize + shift
        var length = target
        var first = GzipWriter.compress(TestData.random(count: length, seed: 7))
        for _ in 0..<20 where first.count != target {
            length += target - first.count
            first = GzipWriter.compress(TestData.random(count: length, seed: 7))
        }
        try #require(first.count == target)
        let second = TestData.text(lines: 100)
        let path = try directory.write(first + GzipWriter.compress(second), to: "straddle.gz")
        let (bytes, error) = try TestData.decode(path)
        #expect(error == nil)
        #expect(TestData.difference(bytes, TestData.random(count: length, seed: 7) + second) == nil)
    }

    @Test(arguments: [0.5, 0.9, 0.999])
    func deliversGoodPrefixThenReportsTruncation(fraction: Double) throws {
        let directory = try TemporaryDirectory()
        let text = TestData.text(lines: 50_000)
        let compressed = GzipWriter.compress(text)
        let cut = Int(Double(compressed.count) * fraction)
        let path = try directory.write(Array(compressed[..<cut]), to: "truncated.gz")
        let (bytes, error) = try TestData.decode(path)
        let failure = try #require(error)
        #expect(failure.kind == .truncated)
        #expect(failure.decodedOffset == bytes.count)
        #expect(!bytes.isEmpty)
        #expect(TestData.difference(bytes, Array(text.prefix(bytes.count))) == nil)
        #expect(failure.description == "gzip data ends in the middle of a member (truncated file)")
    }

    @Test(arguments: [1, 4, 8])
    func reportsTruncationInsideTheTrailerAfterDeliveringAllData(missing: Int) throws {
        let directory = try TemporaryDirectory()
        let text = TestData.text(lines: 1_000)
        let compressed = GzipWriter.compress(text)
        let path = try directory.write(Array(compressed.dropLast(missing)), to: "no-trailer.gz")
        let (bytes, error) = try TestData.decode(path)
        #expect(error?.kind == .truncated)
        #expect(TestData.difference(bytes, text) == nil)
    }

    @Test func reportsTruncationInsideTheSecondMemberHeader() throws {
        let directory = try TemporaryDirectory()
        let text = TestData.text(lines: 100)
        let bytes = GzipWriter.compress(text) + Array(GzipWriter.compress(text).prefix(5))
        let path = try directory.write(bytes, to: "cut-header.gz")
        let (decoded, error) = try TestData.decode(path)
        #expect(error?.kind == .truncated)
        #expect(TestData.difference(decoded, text) == nil)
    }

    @Test func reportsInvalidDeflateBlockAsCorrupt() throws {
        let directory = try TemporaryDirectory()
        var compressed = GzipWriter.compress(TestData.text(lines: 1_000))
        // Byte 10 starts the deflate data (no optional header fields); BTYPE 11 is reserved.
        compressed[10] |= 0x06
        let path = try directory.write(compressed, to: "bad-block.gz")
        let (bytes, error) = try TestData.decode(path)
        #expect(bytes.isEmpty)
        #expect(error?.kind == .corrupt("invalid block type"))
    }

    @Test func reportsFlippedByteInDeflateDataAsCorrupt() throws {
        let directory = try TemporaryDirectory()
        let text = TestData.text(lines: 20_000)
        var compressed = GzipWriter.compress(text)
        compressed[compressed.count / 2] ^= 0x55
        let path = try directory.write(compressed, to: "flipped.gz")
        let (bytes, error) = try TestData.decode(path)
        let failure = try #require(error)
        guard case .corrupt(let message) = failure.kind else {
            Issue.record("expected .corrupt, got \(failure.kind)")
            return
        }
        #expect(!message.isEmpty)
        #expect(failure.decodedOffset == bytes.count)
    }

    @Test func reportsBadChecksumAfterDeliveringTheData() throws {
        let directory = try TemporaryDirectory()
        let text = TestData.text(lines: 1_000)
        var compressed = GzipWriter.compress(text)
        compressed[compressed.count - 8] ^= 0xFF
        let path = try directory.write(compressed, to: "bad-crc.gz")
        let (bytes, error) = try TestData.decode(path)
        #expect(TestData.difference(bytes, text) == nil)
        #expect(error == GzipError(.corrupt("incorrect data check"), decodedOffset: text.count))
        #expect(error?.description.contains("incorrect data check") == true)
    }

    @Test func reportsBadHeaderAsCorrupt() throws {
        let directory = try TemporaryDirectory()
        var compressed = GzipWriter.compress(TestData.text(lines: 10))
        compressed[2] = 7
        let path = try directory.write(compressed, to: "bad-method.gz")
        let (_, error) = try TestData.decode(path)
        #expect(error?.kind == .corrupt("unknown compression method"))
    }

    @Test func reportsTrailingGarbageAfterTheLastMember() throws {
        let directory = try TemporaryDirectory()
        let text = TestData.text(lines: 100)
        let path = try directory.write(GzipWriter.compress(text) + Array("<html>oops".utf8), to: "garbage.gz")
        let (bytes, error) = try TestData.decode(path)
        #expect(TestData.difference(bytes, text) == nil)
        #expect(error == GzipError(.trailingGarbage, decodedOffset: text.count))
    }

    @Test func toleratesZeroPaddingAfterTheLastMember() throws {
        let directory = try TemporaryDirectory()
        let text = TestData.text(lines: 100)
        let padded = GzipWriter.compress(text) + [UInt8](repeating: 0, count: 300_000)
        let path = try directory.write(padded, to: "padded.gz")
        let (bytes, error) = try TestData.decode(path)
        #expect(error == nil)
        #expect(TestData.difference(bytes, text) == nil)
    }

    @Test func keepsReportingTheFaultOnLaterCalls() throws {
        let directory = try TemporaryDirectory()
        let compressed = GzipWriter.compress(TestData.text(lines: 1_000))
        let path = try directory.write(Array(compressed.prefix(compressed.count / 2)), to: "truncated.gz")
        let file = try DecodedFile(path: path)
        let first = TestData.drain(file).error
        let second = TestData.drain(file)
        #expect(first?.kind == .truncated)
        #expect(second.bytes.isEmpty)
        #expect(second.error == first)
    }

    @Test func readsEmptyFileAsEmptyPlainData() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write([], to: "empty.txt.gz")
        let file = try DecodedFile(path: path)
        let (bytes, error) = TestData.drain(file)
        #expect(!file.isGzip)
        #expect(bytes.isEmpty)
        #expect(error == nil)
    }

    @Test func decidesByMagicBytesNotByName() throws {
        let directory = try TemporaryDirectory()
        let text = Array("Provider\tSKU\nAPPLE\tcom.example.coins\n".utf8)
        let plainPath = try directory.write(text, to: "S_D_1_20200101.txt.gz")
        let gzipPath = try directory.write(GzipWriter.compress(text), to: "S_D_1_20200101.txt")
        let plain = try DecodedFile(path: plainPath)
        let gzip = try DecodedFile(path: gzipPath)
        #expect(!plain.isGzip)
        #expect(gzip.isGzip)
        #expect(TestData.difference(TestData.drain(plain).bytes, text) == nil)
        #expect(TestData.difference(TestData.drain(gzip).bytes, text) == nil)
    }

    @Test func readsLoneMagicByteAsPlainData() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write([0x1f], to: "one-byte")
        let file = try DecodedFile(path: path)
        #expect(!file.isGzip)
        #expect(TestData.difference(TestData.drain(file).bytes, [0x1f]) == nil)
    }

    @Test func appendsAfterExistingBufferContents() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(GzipWriter.compress(Array("abc".utf8)), to: "abc.gz")
        let file = try DecodedFile(path: path)
        var buffer = Array("xyz".utf8)
        #expect(try file.read(into: &buffer, maxCount: 100) == 3)
        #expect(buffer == Array("xyzabc".utf8))
        #expect(try file.read(into: &buffer, maxCount: 100) == 0)
        #expect(buffer == Array("xyzabc".utf8))
    }

    @Test func reportsMissingFileAsOpenError() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("missing.gz")
        #expect(throws: GzipError(.open(errno: ENOENT, path: path))) {
            try DecodedFile(path: path)
        }
    }

    @Test func reportsDirectoryAsReadError() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: GzipError(.io(errno: EISDIR, path: directory.url.path))) {
            try DecodedFile(path: directory.url.path)
        }
    }
}
