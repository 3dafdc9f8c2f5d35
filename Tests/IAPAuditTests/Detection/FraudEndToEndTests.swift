import Foundation
import IAPAudit
import Postgres
import SyntheticData
import Testing

/// Generated background data plus every planted pattern and trap: each pattern flagged by its rule with its
/// subject and severity, no trap flagged, a second detect changes nothing.
@Suite(.serialized) struct FraudEndToEndTests {
    /// The generated data set, ingested and detected once, shared by the tests below.
    final class Fixture {
        let test: TestWorkspace
        let manifest: FraudManifest
        let settings: DetectionSettings
        let first: DetectionSummary

        init() throws {
            test = try TestWorkspace()
            let directory = test.directory.path + "/data"
            _ = try ReceiptDataGenerator(scenario: .small).write(to: directory, compress: true)
            manifest = try FraudPatternWriter().write(to: directory)
            _ = try test.workspace.importCatalog(path: directory + "/catalog.json", bundleID: nil)
            _ = try test.workspace.ingestReceipts(paths: [directory + "/receipts"])
            var settings = DetectionSettings()
            settings.testerAccountKeys = manifest.testerAccountKeys
            self.settings = settings
            first = try test.workspace.detect(settings: settings)
        }

        /// The flag key a manifest subject names (a receipt is found by its file and line).
        func key(of subject: FraudManifest.Subject) throws -> String {
            if let key = subject.key { return key }
            let result = try test.connection.query(
                """
                SELECT r.id FROM receipt r JOIN input_file f ON f.id = r.file_id
                WHERE f.path LIKE '%/' || $1 AND r.line = $2
                """, [subject.file ?? "", subject.line ?? 0])
            return try #require(result.string(0, 0), "no receipt at \(subject.file ?? "?"):\(subject.line ?? 0)")
        }
    }

    // One ingest for the whole suite: it is the slow part. The suite is serialized, so its tests never share the
    // connection at the same time.
    nonisolated(unsafe) static let shared = Result { try Fixture() }

    @Test func flagsEveryPlantedPatternWithItsRuleSubjectAndSeverity() throws {
        let fixture = try Self.shared.get()
        #expect(fixture.manifest.planted.count >= 12)
        for planted in fixture.manifest.planted {
            let key = try fixture.key(of: planted.subject)
            let result = try fixture.test.connection.query(
                "SELECT severity FROM flags_open WHERE rule = $1 AND subject_kind = $2 AND subject_key = $3",
                [planted.rule, planted.subject.kind, key])
            #expect(
                result.rowCount == 1, "\(planted.pattern): no \(planted.rule) flag on \(planted.subject.kind) \(key)")
            if result.rowCount == 1 {
                #expect(result.string(0, 0) == planted.severity, "\(planted.pattern): severity")
            }
        }
    }

    @Test func plantsEveryRuleOfRecordedReceipts() throws {
        let fixture = try Self.shared.get()
        let planted = Set(fixture.manifest.planted.map(\.rule))
        // Forged signatures are planted by the StoreKit 2 generator, with a chain to sign with (SignedEndToEndTests).
        #expect(planted == Set(DetectionRule.allCases.map(\.id)).subtracting([DetectionRule.forgedSignature.id]))
    }

    @Test func flagsNoTrap() throws {
        let fixture = try Self.shared.get()
        #expect(!fixture.manifest.traps.isEmpty)
        for trap in fixture.manifest.traps {
            for subject in trap.subjects {
                let key = try fixture.key(of: subject)
                let result = try fixture.test.connection.query(
                    "SELECT rule FROM flag WHERE subject_kind = $1 AND subject_key = $2", [subject.kind, key])
                #expect(
                    result.rowCount == 0,
                    "\(trap.trap): \(subject.kind) \(key) flagged by \(result.rows.map { $0[0] ?? "?" })")
            }
        }
    }

    static let allFlags =
        "SELECT id, rule, subject_kind, subject_key, severity, score, evidence::text, updated_at FROM flag ORDER BY id"

    @Test func secondDetectCreatesAndChangesNothing() throws {
        let fixture = try Self.shared.get()
        #expect(fixture.first.created > 0)
        let before = try fixture.test.connection.query(Self.allFlags).rows
        let second = try fixture.test.workspace.detect(settings: fixture.settings)
        #expect(second.created == 0)
        #expect(second.updated == 0)
        #expect(second.storeAccounts.filesRead == 0)
        let after = try fixture.test.connection.query(Self.allFlags).rows
        #expect(before == after)
    }

    @Test func recordsEachRunWithTheSettingsItUsed() throws {
        let fixture = try Self.shared.get()
        let result = try fixture.test.connection.query(
            """
            SELECT settings -> 'detection' -> 'sandbox_in_production' -> 'tester_account_keys' ->> 0,
                   settings -> 'detection' -> 'many_store_accounts' ->> 'window_days', outcome
            FROM pipeline_run WHERE command = 'detect' ORDER BY id LIMIT 1
            """)
        #expect(result.string(0, 0) == fixture.manifest.testerAccountKeys.first)
        #expect(result.string(0, 1) == "30")
        #expect(result.string(0, 2) == "succeeded")
    }

    @Test func evidenceNamesTheTransactionsAndNoRawUsername() throws {
        let fixture = try Self.shared.get()
        let mallory = try #require(
            fixture.manifest.planted.first { $0.rule == "many-store-accounts" }?.subject.key)
        let evidence = try fixture.test.connection.query(
            """
            SELECT evidence ->> 'confirmed_store_accounts', jsonb_array_length(evidence -> 'store_accounts')
            FROM flag WHERE rule = 'many-store-accounts' AND subject_key = $1
            """, [mallory])
        #expect(evidence.string(0, 0) == "5")
        #expect(evidence.string(0, 1) == "5")
        let leaked = try fixture.test.connection.query(
            "SELECT count(*) FROM flag WHERE evidence::text LIKE '%@example.%' OR subject_key LIKE '%@%'")
        #expect(leaked.int(0, 0) == 0)
    }

    @Test func accountReportDrillsDownByHash() throws {
        let fixture = try Self.shared.get()
        let refunder = try #require(fixture.manifest.planted.first { $0.rule == "refund-abuse" }?.subject.key)
        let runner = ReportRunner(connection: fixture.test.connection)
        let table = try runner.run(try ReportRunner.definition(named: "account"), parameters: ["account": refunder])
        let kinds = Set(table.rows.compactMap { $0[table.columns.firstIndex { $0.name == "kind" } ?? 0] })
        #expect(kinds.isSuperset(of: ["receipt", "transaction", "store-account", "flag"]))
        let flags = try runner.run(try ReportRunner.definition(named: "flags"), parameters: [:])
        #expect(!flags.rows.isEmpty)
        let chart = try ReportRunner.definition(named: "flags").chart
        let html = String(decoding: ReportRenderer.render(flags, as: .html, chart: chart), as: UTF8.self)
        #expect(html.contains("<svg"))
        let clusters = try runner.run(try ReportRunner.definition(named: "store-accounts"), parameters: [:])
        #expect(!clusters.rows.isEmpty)
    }
}
