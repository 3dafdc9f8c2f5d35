import Foundation
import IAPAudit
import TestSupport
import Testing

/// `--help` of the main command, of `run`, `evidence`, `erase` and `serve`, from the built binary, against the committed text
/// (`Tests/Fixtures/help/*.snapshot`): a changed option, default or wording shows as a diff of lines.
struct HelpSnapshotTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/help")

    @Test(
        arguments: [
            ["--help"], ["run", "--help"], ["evidence", "--help"], ["evidence", "export", "--help"],
            ["evidence", "verify", "--help"], ["erase", "--help"], ["serve", "--help"],
        ])
    func helpReadsAsCommitted(_ arguments: [String]) throws {
        // ArgumentParser wraps at the terminal's width; a file is no terminal, and COLUMNS pins it anyway.
        let outcome = try BinaryUnderTest.run(arguments, environment: ["COLUMNS": "100"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let name = (["iap-audit"] + arguments.dropLast()).joined(separator: "-") + ".help.snapshot"
        let mismatch = try Snapshot.mismatch(outcome.stdout, file: Self.fixtures.appendingPathComponent(name))
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    /// `--version` prints the version every run records: one string, in `Workspace`.
    @Test func versionIsTheOneRunsRecord() throws {
        let outcome = try BinaryUnderTest.run(["--version"])
        #expect(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == Workspace.version)
    }
}
