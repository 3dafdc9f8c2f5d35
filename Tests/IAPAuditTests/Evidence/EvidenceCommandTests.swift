import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit

/// `iap-audit evidence export` and `verify` through the binary, over the example data (docs/evidence.md): a bundle
/// verifies; one byte changed in any kind of file, a missing file and an added one are each refused by name; a JWS
/// whose bytes changed fails its signature even with the manifest rewritten to match.
@Suite(.serialized) struct EvidenceCommandTests {
    static let examples = TestCorpus.repositoryRoot.appendingPathComponent("examples")
    static let testRoot = examples.appendingPathComponent("test-root.der").path

    /// The examples' StoreKit 2 and planted fraud receipts, ingested trusting the generator's root, and detected.
    final class Fixture {
        let test: TestWorkspace

        init() throws {
            test = try TestWorkspace(trustedRoots: [EvidenceCommandTests.testRoot])
            let receipts = EvidenceCommandTests.examples.appendingPathComponent("receipts")
            _ = try test.workspace.ingestReceipts(paths: [
                receipts.appendingPathComponent("storekit2").path, receipts.appendingPathComponent("fraud").path,
            ])
            _ = try test.workspace.detect()
        }

        func run(_ arguments: [String], trusting: Bool = true) throws -> BinaryUnderTest.Outcome {
            try BinaryUnderTest.run(
                arguments + ["--database-url", test.conninfo] + (trusting ? ["--trusted-root", testRoot] : []),
                timeout: 300)
        }

        /// `verify` needs no database: run as a receiver would.
        func verify(
            _ directory: String, _ extra: [String] = [], trusting: Bool = true
        ) throws -> BinaryUnderTest.Outcome {
            try BinaryUnderTest.run(
                ["evidence", "verify", directory] + extra + (trusting ? ["--trusted-root", testRoot] : []),
                timeout: 300)
        }

        /// A subject the forged-signature rule flagged: its record holds a JWS that failed its check at ingest.
        func subject() throws -> String {
            let row = try test.connection.query(
                """
                SELECT f.subject_kind || ':' || f.subject_key FROM flag f
                WHERE f.rule = 'forged-signature' ORDER BY f.id LIMIT 1
                """)
            return try row.requireString(0, 0)
        }

        /// A subject whose cited record holds a JWS that verified: the examples' rules flag none, so a flag citing
        /// a verified signed transaction is added as a rule would write it.
        func verifiedSubject() throws -> String {
            let row = try test.connection.query(
                """
                INSERT INTO flag (rule, rule_version, severity, subject_kind, subject_key, score, evidence)
                SELECT 'purchase-velocity', 1, 'warning', 'transaction', s.transaction_id, 1,
                       jsonb_build_object('purchases', jsonb_build_array(
                           jsonb_build_object('transaction_id', s.transaction_id)))
                FROM signed_object s WHERE s.kind = 'transaction' AND s.outcome = 'verified'
                ORDER BY s.receipt_id, s.ordinal LIMIT 1
                RETURNING subject_kind || ':' || subject_key
                """)
            return try row.requireString(0, 0)
        }

        func folder(_ name: String) -> String { test.directory.appendingPathComponent(name).path }
    }

    @Test func aBundleVerifiesAndEveryChangedMissingOrAddedFileIsNamed() throws {
        let fixture = try Fixture()
        let subject = try fixture.subject()
        let bundle = fixture.folder("case")
        let exported = try fixture.run(["evidence", "export", subject, "--out", bundle])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("manifest sha256: "), "\(exported.stdout)")
        #expect(!exported.stderr.contains("judged differently"), "\(exported.stderr)")
        let digest = String(
            exported.stdout.split(separator: "\n").first { $0.hasPrefix("manifest sha256: ") }?
                .dropFirst("manifest sha256: ".count).prefix(64) ?? "")

        let verified = try fixture.verify(bundle, ["--manifest-sha256", digest])
        #expect(verified.status == 0, "\(verified.stdout)\n\(verified.stderr)")
        #expect(verified.stdout.contains("evidence: verified \(subject)"), "\(verified.stdout)")

        let files = try Self.files(bundle)
        let signatures = try Self.json(bundle, "signatures.json") as? [[String: Any]] ?? []
        #expect(!signatures.isEmpty && signatures.allSatisfy { $0["outcome"] as? String != "verified" })
        #expect(signatures.allSatisfy { $0["outcome"] as? String == $0["outcome_at_ingest"] as? String })
        for prefix in ["records/", "signed/", "roots/"] {
            #expect(files.contains { $0.hasPrefix(prefix) }, "\(prefix) in \(files)")
        }
        // Usernames stay hashed: not one of the examples' raw usernames is anywhere in the bundle.
        let usernames = try Self.usernames()
        #expect(!usernames.isEmpty)
        for file in files {
            let text = String(decoding: try Self.read(bundle, file), as: UTF8.self)
            #expect(!text.contains("application_username\""), "\(file)")
            for username in usernames { #expect(!text.contains(username), "\(username) in \(file)") }
        }

        // One byte changed in each kind of file: named.
        var kinds: [String: String] = [:]
        for file in files {
            let kind = file.contains("/") ? String(file.split(separator: "/")[0]) : file
            if kinds[kind] == nil { kinds[kind] = file }
        }
        for file in Set(kinds.values).sorted() {
            let copy = try Self.copy(
                bundle, to: fixture.folder("changed-\(file.replacingOccurrences(of: "/", with: "-"))"))
            var bytes = try Self.read(copy, file)
            bytes[bytes.count / 2] ^= 0x01
            try Self.write(copy, file, bytes)
            let outcome = try fixture.verify(copy)
            #expect(outcome.status == 65, "\(file): \(outcome.status) \(outcome.stderr)")
            #expect(
                outcome.stderr.contains("evidence: \(file)") || outcome.stderr.contains(" \(file) "),
                "\(file): \(outcome.stderr)")
        }

        let missing = try Self.copy(bundle, to: fixture.folder("missing"))
        let record = try #require(files.first { $0.hasPrefix("records/") })
        try FileManager.default.removeItem(atPath: (missing as NSString).appendingPathComponent(record))
        let missingOutcome = try fixture.verify(missing)
        #expect(
            missingOutcome.status == 65 && missingOutcome.stderr.contains("\(record): missing"),
            "\(missingOutcome.stderr)")

        let extra = try Self.copy(bundle, to: fixture.folder("extra"))
        try Self.write(extra, "signed/extra.jws", Array("eyJ9.e30.AA".utf8))
        let extraOutcome = try fixture.verify(extra)
        #expect(
            extraOutcome.status == 65 && extraOutcome.stderr.contains("signed/extra.jws: not in the manifest"),
            "\(extraOutcome.stderr)")

        // Without the generator's root the receiver's check fails those JWS, and says which root they need.
        let untrusted = try fixture.verify(bundle, trusting: false)
        #expect(untrusted.status == 65 && untrusted.stderr.contains("untrusted-chain"), "\(untrusted.stderr)")
        #expect(untrusted.stdout.contains("not trusted here: root"), "\(untrusted.stdout)")
    }

    /// A JWS whose signature bytes changed, with the manifest and its digest rewritten to match: the hashes all
    /// hold, and the signature does not.
    @Test func aChangedJWSFailsItsSignatureEvenWithTheManifestRewritten() throws {
        let fixture = try Fixture()
        let bundle = fixture.folder("case")
        let exported = try fixture.run(["evidence", "export", try fixture.verifiedSubject(), "--out", bundle])
        #expect(exported.status == 0, "\(exported.stderr)")
        let untouched = try fixture.verify(bundle)
        #expect(untouched.status == 0, "\(untouched.stderr)")
        let signatures = try Self.json(bundle, "signatures.json") as? [[String: Any]] ?? []
        let file = try #require(
            signatures.first { $0["outcome"] as? String == "verified" }?["file"] as? String)

        var jws = try Self.read(bundle, file)
        let lastDot = try #require(jws.lastIndex(of: UInt8(ascii: ".")))
        let index = lastDot + (jws.count - lastDot) / 2
        jws[index] = jws[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        try Self.write(bundle, file, jws)
        var manifest = try #require(try Self.json(bundle, "manifest.json") as? [String: Any])
        manifest["files"] = (manifest["files"] as? [[String: Any]] ?? []).map { entry in
            var entry = entry
            if entry["path"] as? String == file { entry["sha256"] = EvidenceBundle.sha256(jws) }
            return entry
        }
        let manifestBytes = try EvidenceBundle.json(manifest)
        try Self.write(bundle, "manifest.json", manifestBytes)
        try Self.write(
            bundle, "manifest.sha256", EvidenceBundle.manifestDigestLine(EvidenceBundle.sha256(manifestBytes)))

        let outcome = try fixture.verify(bundle)
        #expect(outcome.status == 65, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("\(file): the signature check gives bad-signature"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("differs from the manifest"), "\(outcome.stderr)")
    }

    @Test func refusals() throws {
        let fixture = try Fixture()
        let subject = try fixture.subject()
        let full = fixture.folder("full")
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: (full as NSString).appendingPathComponent("x")))
        let refused: [[String]] = [
            ["evidence", "export", "app-account:" + String(repeating: "0", count: 64), "--out", fixture.folder("a")],
            ["evidence", "export", "planet:mars", "--out", fixture.folder("b")],
            ["evidence", "export", subject, "--out", full],
            ["evidence", "export", subject],
            ["evidence", "export", "--out", fixture.folder("c")],
            ["evidence", "verify", full, "--manifest-sha256", "abc"],
            ["evidence", "verify"],
        ]
        for arguments in refused {
            let outcome = try fixture.run(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.status) \(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.folder("a")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: full) == ["x"])
        #expect(try fixture.verify(fixture.folder("nowhere")).status == 66)
    }

    // Files -----------------------------------------------------------------------------------------------------

    static func files(_ directory: String) throws -> [String] {
        try EvidenceBundle.files(in: directory)
    }

    static func read(_ directory: String, _ file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: (directory as NSString).appendingPathComponent(file))))
    }

    static func write(_ directory: String, _ file: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: (directory as NSString).appendingPathComponent(file)))
    }

    static func json(_ directory: String, _ file: String) throws -> Any? {
        EvidenceBundle.parse(try read(directory, file))
    }

    static func copy(_ directory: String, to target: String) throws -> String {
        try FileManager.default.copyItem(atPath: directory, toPath: target)
        return target
    }

    /// Every raw application username in the example receipts.
    static func usernames() throws -> Set<String> {
        let receipts = examples.appendingPathComponent("receipts")
        var names: Set<String> = []
        let pattern = try NSRegularExpression(pattern: "\"application_username\"\\s*:\\s*\"([^\"]+)\"")
        for case let path as String in FileManager.default.enumerator(atPath: receipts.path) ?? .init() {
            guard path.hasPrefix("storekit2") || path.hasPrefix("fraud"), path.hasSuffix(".jsonl") else { continue }
            let text = try String(contentsOf: receipts.appendingPathComponent(path), encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { names.insert(String(text[range])) }
            }
        }
        return names
    }
}
