import Foundation
import Gzip
import TestSupport
import Testing

struct GzipWriterTests {
    @Test func roundTripsThroughDecodedFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.txt.gz")
        let text = TestData.text(lines: 30_000)
        let writer = try GzipWriter(path: path)
        // Uneven pieces exercise the streaming path rather than one big deflate call.
        var offset = 0
        for size in [1, 10, 1_000, 100_000].cycled(count: 40) where offset < text.count {
            let end = min(offset + size, text.count)
            try writer.write(text[offset..<end])
            offset = end
        }
        try writer.write(text[offset...])
        try writer.close()
        #expect(writer.membersWritten == 1)
        let (bytes, error) = try TestData.decode(path)
        #expect(error == nil)
        #expect(TestData.difference(bytes, text) == nil)
    }

    @Test func finishMemberStartsANewMember() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("two.gz")
        let first = TestData.text(lines: 1_000)
        let second = TestData.text(lines: 2_000, seed: 5)
        let writer = try GzipWriter(path: path)
        try writer.write(first)
        try writer.finishMember()
        // The first member is complete on disk now: its bytes alone must decode to `first`.
        let firstMember = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        try writer.write(second)
        try writer.close()
        #expect(writer.membersWritten == 2)
        let whole = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let firstPath = try directory.write(firstMember, to: "first.gz")
        let secondPath = try directory.write(Array(whole[firstMember.count...]), to: "second.gz")
        #expect(TestData.difference(try TestData.decode(firstPath).bytes, first) == nil)
        #expect(TestData.difference(try TestData.decode(secondPath).bytes, second) == nil)
        #expect(TestData.difference(try TestData.decode(path).bytes, first + second) == nil)
    }

    @Test func finishingWithoutWritesAddsAnEmptyMember() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("empty-middle.gz")
        let writer = try GzipWriter(path: path)
        try writer.write("a\n")
        try writer.finishMember()
        try writer.finishMember()
        try writer.write("b\n")
        try writer.close()
        #expect(writer.membersWritten == 3)
        #expect(TestData.difference(try TestData.decode(path).bytes, Array("a\nb\n".utf8)) == nil)
    }

    @Test func closingAfterFinishMemberAddsNoMember() throws {
        let directory = try TemporaryDirectory()
        let writer = try GzipWriter(path: directory.path("one.gz"))
        try writer.write("a\n")
        try writer.finishMember()
        try writer.close()
        #expect(writer.membersWritten == 1)
    }

    @Test func closingAnUnwrittenFileLeavesAValidEmptyGzip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nothing.gz")
        let writer = try GzipWriter(path: path)
        try writer.close()
        let file = try DecodedFile(path: path)
        let (bytes, error) = TestData.drain(file)
        #expect(file.isGzip)
        #expect(bytes.isEmpty)
        #expect(error == nil)
    }

    @Test func writesLargeIncompressibleInputAcrossOutputBuffers() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("random.gz")
        let data = TestData.random(count: 2_000_000, seed: 42)
        let writer = try GzipWriter(path: path, level: 1)
        try writer.write(data)
        try writer.close()
        #expect(TestData.difference(try TestData.decode(path).bytes, data) == nil)
    }

    @Test func truncatesAnExistingFile() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(TestData.random(count: 100_000, seed: 1), to: "old.gz")
        let writer = try GzipWriter(path: path)
        try writer.write("new\n")
        try writer.close()
        #expect(TestData.difference(try TestData.decode(path).bytes, Array("new\n".utf8)) == nil)
    }

    @Test func compressProducesOneMemberInMemory() throws {
        let directory = try TemporaryDirectory()
        let text = TestData.text(lines: 5_000)
        let compressed = GzipWriter.compress(text)
        #expect(compressed.starts(with: [0x1f, 0x8b, 0x08]))
        #expect(compressed.count < text.count / 4)
        let path = try directory.write(compressed, to: "memory.gz")
        #expect(TestData.difference(try TestData.decode(path).bytes, text) == nil)
        #expect(GzipWriter.compress([]).count == 20)
    }

    @Test func rejectsWritesAfterClose() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("closed.gz")
        let writer = try GzipWriter(path: path)
        try writer.close()
        #expect(throws: GzipError(.io(errno: EBADF, path: path))) {
            try writer.write("late")
        }
    }

    @Test func reportsUncreatableFileAsOpenError() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("no-such-dir/out.gz")
        #expect(throws: GzipError(.open(errno: ENOENT, path: path))) {
            try GzipWriter(path: path)
        }
    }

    @Test(.enabled(if: ["/usr/bin/gzip", "/bin/gzip"].contains { FileManager.default.isExecutableFile(atPath: $0) }))
    func interoperatesWithSystemGzip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("two-members.gz")
        let writer = try GzipWriter(path: path)
        try writer.write("first\n")
        try writer.finishMember()
        try writer.write("second\n")
        try writer.close()
        let output = try Self.run(["gzip", "-dc", path])
        #expect(output == Array("first\nsecond\n".utf8))

        let plain = try directory.write(TestData.text(lines: 3_000), to: "system.txt")
        _ = try Self.run(["gzip", "-k", plain])
        #expect(TestData.difference(try TestData.decode(plain + ".gz").bytes, TestData.text(lines: 3_000)) == nil)
    }

    private static func run(_ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return Array(output)
    }
}

extension Array {
    /// The elements repeated until there are `count` of them.
    fileprivate func cycled(count: Int) -> [Element] {
        (0..<count).map { self[$0 % self.count] }
    }
}
