import AppStoreFormats
import AppleAPI
import Foundation
import IAPAudit
import Postgres
import Testing

/// The figures docs/ quotes — rule defaults, reason codes, exit codes, metrics, timeouts — are the code's, read
/// from the code rather than written down a second time here.
struct DocumentedFiguresTests {
    static func document(_ name: String) throws -> String {
        try String(contentsOf: DocumentReferenceTests.root.appendingPathComponent("docs/\(name)"), encoding: .utf8)
    }

    /// The lines of `text` under the heading `heading` (any level), up to the next heading of the same or a higher
    /// level.
    static func section(_ heading: String, of text: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("#") && $0.drop { $0 == "#" }.dropFirst() == heading })
        else { return [] }
        let level = lines[start].prefix { $0 == "#" }.count
        let rest = lines[(start + 1)...]
        let end =
            rest.firstIndex { line in line.hasPrefix("#") && line.prefix { $0 == "#" }.count <= level }
            ?? lines.endIndex
        return Array(lines[(start + 1)..<end])
    }

    /// The cells of the Markdown table rows among `lines` (header and separator rows included).
    static func tableRows(_ lines: [Substring]) -> [[String]] {
        lines.filter { $0.hasPrefix("|") }.map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// A cell's text without its backticks.
    static func unquoted(_ cell: String) -> String { cell.trimmingCharacters(in: ["`"]) }

    /// Each rule's `setting → default` table in docs/fraud-rules.md, keyed by rule id; defaults parsed as JSON.
    static func documentedRuleSettings(_ text: String) throws -> [String: [String: NSObject]] {
        var settings: [String: [String: NSObject]] = [:]
        for rule in DetectionRule.allCases {
            let lines = section("`\(rule.id)`", of: text)
            guard !lines.isEmpty else { continue }
            var table: [String: NSObject] = [:]
            for cells in tableRows(lines) where cells.count >= 2 && cells[0].hasPrefix("`") {
                let value = try JSONSerialization.jsonObject(
                    with: Data(unquoted(cells[1]).utf8), options: .fragmentsAllowed)
                table[unquoted(cells[0])] = value as? NSObject
            }
            settings[rule.id] = table
        }
        return settings
    }

    @Test func fraudRuleDefaultsAreTheCodes() throws {
        let text = try Self.document("fraud-rules.md")
        let documented = try Self.documentedRuleSettings(text)
        let code = try #require(
            try JSONSerialization.jsonObject(with: Data(DetectionSettings().jsonText().utf8)) as? [String: Any])
        for rule in DetectionRule.allCases {
            let inDocument = try #require(documented[rule.id], "docs/fraud-rules.md has no section for \(rule.id)")
            let inCode = code[rule.id.replacingOccurrences(of: "-", with: "_")] as? [String: Any] ?? [:]
            #expect(Set(inDocument.keys) == Set(inCode.keys), "\(rule.id): documented settings differ from the code's")
            for (key, value) in inCode {
                #expect(
                    inDocument[key]?.isEqual(value) == true,
                    "\(rule.id).\(key): documented \(inDocument[key].map { "\($0)" } ?? "nothing"), code \(value)")
            }
        }
        // A rule section the code does not have (a renamed or removed rule) is caught too.
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("### `") }.map {
            Self.unquoted(String($0.dropFirst(4)))
        }
        #expect(headings.sorted() == DetectionRule.allCases.map(\.id).sorted())
    }

    @Test func aChangedDefaultIsCaught() throws {
        let text = try Self.document("fraud-rules.md")
            .replacingOccurrences(of: "| `window_days` | `30` |", with: "| `window_days` | `31` |")
        let documented = try Self.documentedRuleSettings(text)
        let code = try #require(
            try JSONSerialization.jsonObject(with: Data(DetectionSettings().jsonText().utf8)) as? [String: Any])
        let windowDays = (code["many_store_accounts"] as? [String: Any])?["window_days"]
        #expect(documented["many-store-accounts"]?["window_days"]?.isEqual(windowDays) == false)
    }

    @Test func quarantineReasonCodesAreTheCodes() throws {
        let rows = Self.tableRows(Self.section("Quarantine reason codes", of: try Self.document("inputs.md")))
        let documented = rows.filter { $0.first?.hasPrefix("`") == true }.map { Self.unquoted($0[0]) }
        #expect(documented.count == Set(documented).count, "a reason code is listed twice")
        #expect(Set(documented) == Set(QuarantineReason.allCases.map(\.rawValue)))
    }

    /// Every exit code the code can end a command with: each `IAPAuditError`'s, and an ingest's outcome (0, or 65
    /// for rejected input) as `Workspace` computes it.
    static func exitCodesInCode() throws -> Set<Int32> {
        let unavailable = PostgresError(kind: .connection, message: "could not connect")
        let failed = PostgresError(kind: .statement, message: "failed", sqlState: "42P01")
        let errors: [IAPAuditError] = [
            .databaseUnavailable(unavailable), .database(failed), .database(unavailable),
            .migrationChanged(name: "0001_create_core.sql"), .schemaNewerThanBinary(database: 99, binary: 9),
            .schemaOlderThanBinary(database: 9, binary: 99),
            .locked(holder: nil), .lockTimeout(seconds: 1, holders: []), .configuration("bad"), .input("missing"),
            .usage("bad"), .interrupted(signal: SIGINT), .interrupted(signal: SIGTERM), .internalInconsistency("x"),
            .postgres(failed), .postgres(unavailable), .embeddedServer("x"), .storage("full"), .cannotCreate("x"),
            .apple(.retriesExhausted(request: "GET /v1/salesReports", attempts: 8, seconds: 300, last: "429")),
            .apple(.unauthorized(api: .appStoreConnect, key: "key K", detail: "")),
            .apple(.key(path: "/k.p8", problem: "can be read by other users")),
        ]
        var codes = Set(errors.map(\.exitCode))
        let strict = try TestWorkspace(strict: true)
        var summary = IngestSummary()
        codes.insert(strict.workspace.exitCode(of: summary))
        summary.quarantined = 1
        codes.insert(strict.workspace.exitCode(of: summary))
        return codes
    }

    @Test func exitCodesAreTheCodes() throws {
        let rows = Self.tableRows(Self.section("Exit codes", of: try Self.document("operating.md")))
        let documented = rows.compactMap(\.first).flatMap { cell in
            cell.split(separator: ",").compactMap { Int32($0.trimmingCharacters(in: .whitespaces)) }
        }
        #expect(documented.count == Set(documented).count, "an exit code is listed twice")
        #expect(Set(documented) == (try Self.exitCodesInCode()))
    }

    @Test func metricsAreTheOnesWritten() throws {
        let rows = Self.tableRows(Self.section("Metrics", of: try Self.document("operating.md")))
        let documented = Set(rows.compactMap(\.first).filter { $0.hasPrefix("`") }.map(Self.unquoted))
        let text = MetricsFile.text(summary: RunSummary(), exitCode: 0, finishedAt: Date())
        let written = Set(
            text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { String($0.split(separator: " ")[2]) })
        #expect(!written.isEmpty)
        #expect(documented == written)
    }

    @Test func quotedTimeoutsAreTheDefaults() throws {
        let settings = Settings(
            database: .url("postgresql:///unused"), environment: [:], hasher: AccountKeyHasher(pepper: nil))
        let operating = try Self.document("operating.md")
        #expect(operating.contains("`IAP_AUDIT_LOCK_TIMEOUT` seconds (default \(Int(settings.lockTimeout)))"))
        #expect(operating.contains("`IAP_AUDIT_SERVER_TIMEOUT` seconds (default \(Int(settings.serverTimeout)))"))
        let inputs = try Self.document("inputs.md")
        #expect(inputs.contains("settling time (\(Int(settings.settlingSeconds)) s, `IAP_AUDIT_SETTLING_SECONDS`)"))
        #expect(inputs.contains("a record over \(ReceiptIngest.defaultMaxRecordLength >> 20) MiB"))
        #expect(inputs.contains("a line over \(SalesIngest.defaultMaxLineLength >> 20) MiB"))
        #expect(inputs.contains("an identifier over \(IdentifierLimit.bytes) bytes"))
    }
}
