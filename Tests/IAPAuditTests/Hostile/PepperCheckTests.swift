import Foundation
import IAPAudit
import TestSupport
import Testing

/// `config check` judges the pepper as `run` does, and a pepper too short for HMAC-SHA256 is refused by both.
struct PepperCheckTests {
    static func pepper(_ text: String, mode: Int, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("pepper-\(UUID().uuidString)").path
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func configCheckRefusesThePepperFilesRunRefuses() throws {
        let test = try TestWorkspace()
        let strong = String(repeating: "k", count: 32)
        for (path, problem) in [
            (try Self.pepper(strong, mode: 0o644, in: test.directory), "chmod 600"),
            (try Self.pepper("x", mode: 0o600, in: test.directory), "at least 32"),
        ] {
            let config = try test.write("iap-audit-\(UUID().uuidString).toml", "[privacy]\npepper_file = \"\(path)\"\n")
            let check = try BinaryUnderTest.run(["config", "check", config])
            #expect(check.status == 78, "\(check.stdout) \(check.stderr)")
            #expect(check.stderr.contains(problem), "\(check.stderr)")
            let run = try BinaryUnderTest.run(
                ["hash-username", "alice"], environment: ["IAP_AUDIT_PEPPER_FILE": path])
            #expect(run.status == 78, "\(run.stderr)")
        }
        let good = try Self.pepper(strong, mode: 0o600, in: test.directory)
        let config = try test.write("iap-audit.toml", "[privacy]\npepper_file = \"\(good)\"\n")
        let check = try BinaryUnderTest.run(["config", "check", config])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(!check.stdout.contains(strong), "the pepper itself is never printed")
    }

    @Test func aOneBytePepperInTheEnvironmentIsRefusedSayingWhy() throws {
        let outcome = try BinaryUnderTest.run(["hash-username", "alice"], environment: ["IAP_AUDIT_PEPPER": "p"])
        #expect(outcome.status == 78)
        #expect(outcome.stderr.contains("HMAC-SHA256 needs at least 32"), "\(outcome.stderr)")
        #expect(!outcome.stdout.contains("-"), "no key is printed with a weak pepper")
    }
}
