import AppStoreFormats
import Foundation
import Gzip
import Testing

struct SalesReportFileReaderTests {
    @Test func readsPlainLinesWithTheirNumbers() throws {
        let items = try ReaderFixture().items(Array("Provider\tSKU\r\nAPPLE\tgem\n\nAPPLE\tcoin".utf8))
        #expect(
            items == [
                .line(1, "Provider\tSKU"), .line(2, "APPLE\tgem"), .line(3, ""), .line(4, "APPLE\tcoin"),
            ])
    }

    @Test func findsGzipByMagicBytesWhateverTheName() throws {
        let fixture = try ReaderFixture()
        let path = try fixture.write(GzipWriter.compress(Array("a\nb\n".utf8)), to: "report.txt")
        let reader = try SalesReportFileReader(path: path, maxLineLength: 100)
        #expect(reader.isGzip)
        #expect(ReaderFixture.drain(reader) == [.line(1, "a"), .line(2, "b")])
        #expect(!reader.hasReadError)
    }

    @Test func reportsAnOverlongLineAndGoesOn() throws {
        let items = try ReaderFixture().items(Array("short\n0123456789ABCDEF\nnext\n".utf8), maxLineLength: 10)
        #expect(
            items == [
                .line(1, "short"),
                .unreadable(
                    2, .lineTooLong, "line is 16 bytes, longer than the 10-byte limit", excerpt: "0123456789"),
                .line(3, "next"),
            ])
    }

    @Test func reportsALineWithANulByteWithItsBytes() throws {
        let items = try ReaderFixture().items([0x61, 0x0A, 0x62, 0x00, 0x63, 0x0A, 0x64])
        #expect(
            items == [
                .line(1, "a"), .unreadable(2, .nulByte, "line contains a NUL byte", excerpt: "b\0c"), .line(3, "d"),
            ])
    }

    @Test func rejectsTruncatedGzipAfterTheLinesBeforeIt() throws {
        let fixture = try ReaderFixture()
        let text = (1...2000).map { "APPLE\tproduct-\($0)\t\($0 * 7919)\n" }.joined()
        let compressed = GzipWriter.compress(Array(text.utf8))
        let path = try fixture.write(Array(compressed.prefix(compressed.count / 2)), to: "cut.txt.gz")
        let reader = try SalesReportFileReader(path: path, maxLineLength: 1000)
        let items = ReaderFixture.drain(reader)
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
        let items = try ReaderFixture().items(compressed)
        let last = try #require(items.last)
        guard case .failed(_, let reason, _) = last else {
            Issue.record("expected a decoding failure, got \(last)")
            return
        }
        #expect(reason == .corruptGzip)
    }

    @Test func failsToOpenAMissingFile() throws {
        let fixture = try ReaderFixture()
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
}

private final class ReaderFixture {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SalesReportFileReaderTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func items(_ bytes: [UInt8], maxLineLength: Int = 100) throws -> [Item] {
        let reader = try SalesReportFileReader(path: write(bytes, to: "report.txt"), maxLineLength: maxLineLength)
        return Self.drain(reader)
    }

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
