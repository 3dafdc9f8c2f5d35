import AppStoreFormats
import Foundation
import SyntheticData
import Testing

@Suite struct FraudPatternWriterTests {
    static let ruleIDs: Set<String> = [
        "many-store-accounts", "shared-store-account", "receipt-replay", "invalid-receipts", "foreign-app",
        "unknown-product", "sandbox-in-production", "transaction-conflict", "refund-abuse", "purchase-velocity",
        "trial-cycling", "forged-fields",
    ]

    @Test func writesTheSameBytesEveryTime() throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        let manifest = try FraudPatternWriter().write(to: first.path)
        #expect(try FraudPatternWriter().write(to: second.path) == manifest)
        #expect(
            try first.contents(of: FraudPatternWriter.receiptFile)
                == second.contents(of: FraudPatternWriter.receiptFile))
        #expect(
            try first.contents(of: FraudPatternWriter.manifestFile)
                == second.contents(of: FraudPatternWriter.manifestFile))
    }

    @Test func plantsEveryRuleAndEveryTrapOfFraudMD() throws {
        let directory = try TemporaryDirectory()
        let manifest = try FraudPatternWriter().write(to: directory.path)
        #expect(Set(manifest.planted.map(\.rule)) == Self.ruleIDs)
        let traps = manifest.traps.map(\.trap).joined(separator: "|")
        for trap in ["whale", "personal and work", "consumable-only", "family-shared", "upgrade", "tester", "restore"] {
            #expect(traps.contains(trap), "no trap: \(trap)")
        }
        #expect(manifest.traps.allSatisfy { !$0.subjects.isEmpty })
        #expect(manifest.testerAccountKeys.count == 1)
    }

    @Test func everyLineIsAReceiptTheIngestAcceptsAndEveryReceiptSubjectExists() throws {
        let directory = try TemporaryDirectory()
        let manifest = try FraudPatternWriter().write(to: directory.path)
        let text = String(decoding: try directory.contents(of: manifest.file), as: UTF8.self)
        let lines = text.split(separator: "\n")
        let parser = ReceiptRecordParser(hasher: AccountKeyHasher(pepper: nil))
        for (index, line) in lines.enumerated() {
            #expect(throws: Never.self, "line \(index + 1)") { _ = try parser.parse(Array(line.utf8)[...]) }
            #expect(!line.contains("application_username_hash"))
        }
        let subjects = manifest.planted.map(\.subject) + manifest.traps.flatMap(\.subjects)
        for subject in subjects {
            if subject.kind == "receipt" {
                #expect(subject.file == manifest.file)
                #expect((1...lines.count).contains(subject.line ?? 0))
            } else {
                #expect(subject.key?.isEmpty == false)
                // Keys are hashes or ids, never the raw name the input carries.
                #expect(subject.key?.contains("@") == false)
            }
        }
    }
}
