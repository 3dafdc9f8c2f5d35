import EmbeddedPostgres
import Foundation
import TestSupport
import Testing

/// The embedded server's own disk full — its write-ahead log, not a table — is exit 74 naming where, as the README
/// promises for a full disk; it was 69 and "server closed the connection unexpectedly" (issue 30, item 7).
struct DatabaseDiskFullTests {
    /// Runs a system tool; its status.
    @discardableResult
    static func tool(_ path: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func aFullWriteAheadLogDiskIsExitSeventyFourNamingTheDataDirectory() throws {
        // A small file system for the log needs mount(8), which only root may use; elsewhere there is nothing to run.
        guard geteuid() == 0 else { return }
        let home = TestPostgres.home + "/wal-full-\(UUID().uuidString.prefix(8))"
        let environment = ["IAP_AUDIT_HOME": home]
        let server = EmbeddedServer(home: home, installation: try PostgresInstallation.find())
        let mountPoint = home + "-wal"
        defer {
            _ = try? BinaryUnderTest.run(["db", "stop"], environment: environment, timeout: 120)
            _ = try? Self.tool("/bin/umount", ["-l", mountPoint])
            try? server.destroy()
            try? FileManager.default.removeItem(atPath: mountPoint)
        }
        let initialised = try BinaryUnderTest.run(["init"], environment: environment, timeout: 300)
        #expect(initialised.status == 0, "\(initialised.stderr)")
        #expect(try BinaryUnderTest.run(["db", "stop"], environment: environment, timeout: 120).status == 0)

        // pg_wal moves to a file system with 24 MB to spare beyond what it holds now.
        let wal = server.dataDirectory + "/pg_wal"
        let used = try FileManager.default.subpathsOfDirectory(atPath: wal).reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: wal + "/" + name)[.size] as? Int) ?? 0)
        }
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let size = used / (1 << 20) + 24
        guard try Self.tool("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)m", "tmpfs", mountPoint]) == 0 else {
            return  // a container without the capability: nothing to run
        }
        #expect(try Self.tool("/bin/cp", ["-a", wal + "/.", mountPoint]) == 0)
        let owner = try FileManager.default.attributesOfItem(atPath: server.dataDirectory)[.ownerAccountID] as? Int
        #expect(try Self.tool("/bin/chown", ["-R", "\(owner ?? 0)", mountPoint]) == 0)
        try FileManager.default.removeItem(atPath: wal)
        try FileManager.default.createSymbolicLink(atPath: wal, withDestinationPath: mountPoint)

        let data = home + "-data"
        defer { try? FileManager.default.removeItem(atPath: data) }
        let generated = try BinaryUnderTest.run(
            ["generate", "receipts", "--out", data, "--entries", "60000", "--plain"], timeout: 300)
        #expect(generated.status == 0, "\(generated.stderr)")
        let ingest = try BinaryUnderTest.run(
            ["ingest", "receipts", data + "/receipts"], environment: environment, timeout: 600)
        #expect(ingest.status == 74, "\(ingest.status) \(ingest.stderr)")
        #expect(ingest.stderr.contains("the database's disk is full at \(server.dataDirectory)"), "\(ingest.stderr)")
    }
}
