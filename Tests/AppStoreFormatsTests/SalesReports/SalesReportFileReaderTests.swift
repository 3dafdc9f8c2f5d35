import AppStoreFormats
import Foundation
import Gzip
import TestSupport
import Testing

struct SalesReportFileReaderTests {
    @Test func readsPlainLinesWithTheirNumbers() throws {
        let items = try TemporaryDirectory().items(Array("Provider\tSKU\r\nAPPLE\tgem\n\nAPPLE\tcoin".utf8))
        #expect(
            items == [
                .line(1, "Provider\tSKU"), .line(2, "APPLE\tgem"), .line(3, ""), .line(4, "APPLE\tcoin"),
            ])
    }

    @Test func findsGzipByMagicBytesWhateverTheName() throws {
        let fixture = try TemporaryDirectory()
        let path = try fixture.write(GzipWriter.compress(Array("a\nb\n".utf8)), to: "report.txt")
        let reader = try SalesReportFileReader(path: path, maxLineLength: 100)
        #expect(reader.isGzip)
        #expect(Item.drain(reader) == [.line(1, "a"), .line(2, "b")])
        #expect(!reader.hasReadError)
    }

    @Test func reportsAnOverlongLineAndGoesOn() throws {
        let items = try TemporaryDirectory().items(Array("short\n0123456789ABCDEF\nnext\n".utf8), maxLineLength: 10)
        #expect(
            items == [
                .line(1, "short"),
                .unreadable(
                    2, .lineTooLong, "line is 16 bytes, longer than the 10-byte limit", excerpt: "0123456789"),
                .line(3, "next"),
            ])
    }

    @Test func reportsALineWithANulByteWithItsBytes() throws {
        let items = try TemporaryDirectory().items([0x61, 0x0A, 0x62, 0x00, 0x63, 0x0A, 0x64])
        #expect(
            items == [
                .line(1, "a"), .unreadable(2, .nulByte, "line contains a NUL byte", excerpt: "b\0c"), .line(3, "d"),
            ])
    }

    @Test func rejectsTruncatedGzipAfterTheLinesBeforeIt() throws {
        let fixture = try TemporaryDirectory()
        let text = (1...2000).map { "APPLE\tproduct-\($0)\t\($0 * 7919)\n" }.joined()
        let compressed = GzipWriter.compress(Array(text.utf8))
        let path = try fixture.write(Array(compressed.prefix(compressed.count / 2)), to: "cut.txt.gz")
        let reader = try SalesReportFileReader(path: path, maxLineLength: 1000)
        let items = Item.drain(reader)
        let last = try #require(items.last)
        guard case .failed(let line, let reason, let message) = last else {
            Issue.record("expected a decoding failure at the end, got \(last)")
            return
        }
        #expect(reason == .truncatedGzip)
        #expect(message.hasSuffix("(lines before \(line) were read)"))
        #expect(items.dropLast().count == line - 1)
        #expect(items.dropLast().allSatisfy { if case .line = $0 { true } else { false } })
        #expect(reader.hasReadError)
        #expect(reader.next() == nil)
    }

    @Test func rejectsCorruptGzip() throws {
        var compressed = GzipWriter.compress(Array(String(repeating: "APPLE\tgem\t1\n", count: 500).utf8))
        for index in 20..<40 { compressed[index] ^= 0xA5 }
        let items = try TemporaryDirectory().items(compressed)
        let last = try #require(items.last)
        guard case .failed(_, let reason, _) = last else {
            Issue.record("expected a decoding failure, got \(last)")
            return
        }
        #expect(reason == .corruptGzip)
    }

    @Test func failsToOpenAMissingFile() throws {
        let fixture = try TemporaryDirectory()
        #expect(throws: GzipError.self) {
            try SalesReportFileReader(path: fixture.path("missing.txt"), maxLineLength: 100)
        }
    }
}

/// What the reader yielded, comparable.
private enum Item: Equatable {
    case line(Int, String)
    case unreadable(Int, QuarantineReason, String, excerpt: String)
    case failed(Int, QuarantineReason, String)

    /// Every item the reader yields, with bytes as text.
    static func drain(_ reader: SalesReportFileReader) -> [Item] {
        var items: [Item] = []
        while let item = reader.next() {
            switch item {
            case .line(let number, let bytes):
                items.append(.line(number, String(decoding: bytes, as: UTF8.self)))
            case .unreadableLine(let number, let reason, let message, let excerpt):
                items.append(.unreadable(number, reason, message, excerpt: String(decoding: excerpt, as: UTF8.self)))
            case .decodingFailed(let line, let reason, let message):
                items.append(.failed(line, reason, message))
            }
        }
        return items
    }
}

/// Reading what a test wrote into its temporary directory (removed when the test ends).
extension TemporaryDirectory {
    fileprivate func items(_ bytes: [UInt8], maxLineLength: Int = 100) throws -> [Item] {
        let reader = try SalesReportFileReader(path: write(bytes, to: "report.txt"), maxLineLength: maxLineLength)
        return Item.drain(reader)
    }
}
