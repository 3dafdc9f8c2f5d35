import Foundation
import IAPAudit
import Postgres
import SyntheticData
import Testing

/// Generated StoreKit 2 data (every shape, signed by the generator's own chain, with planted verification failures
/// and traps) through ingest and detect over a real PostgreSQL, checked against the generator's manifest.
@Suite(.serialized)
struct SignedEndToEndTests {
    /// The generated data, ingested (trusting the generator's root) and detected once, shared by the tests below.
    final class Fixture {
        let test: TestWorkspace
        let manifest: SignedManifest
        let directory: String

        init() throws {
            directory =
                FileManager.default.temporaryDirectory
                .appendingPathComponent("iap-audit-signed-\(UUID().uuidString)").path
            manifest = try SignedRecordWriter(scenario: StoreKit2Scenario()).write(to: directory, compress: true)
            test = try TestWorkspace(trustedRoots: [directory + "/" + manifest.rootCertificate])
            _ = try test.workspace.ingestReceipts(paths: [directory + "/receipts"])
            _ = try test.workspace.detect()
        }

        deinit {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    // One ingest for the whole suite; serialized, so its tests never share the connection at the same time.
    nonisolated(unsafe) static let shared = Result { try Fixture() }

    /// A manifest pointer (`/signedPayload/payload/data/signedTransactionInfo`, `/signedTransactions/3`) as
    /// `signed_object.path` spells it (`signedPayload.payload.data.signedTransactionInfo`, `signedTransactions[3]`).
    static func path(ofPointer pointer: String) -> String {
        var path = ""
        for step in pointer.split(separator: "/") {
            if Int(step) != nil {
                path += "[\(step)]"
            } else {
                path += (path.isEmpty ? "" : ".") + step
            }
        }
        return path
    }

    @Test func everyJWSHasTheOutcomeTheGeneratorPlanted() throws {
        let fixture = try Self.shared.get()
        let rows = try fixture.test.connection.query(
            """
            SELECT f.path, r.line, o.path, o.kind, o.outcome FROM signed_object o
            JOIN receipt r ON r.id = o.receipt_id JOIN input_file f ON f.id = r.file_id
            """)
        var stored: [String] = []
        for row in 0..<rows.rowCount {
            let file = try #require(rows.string(row, 0))
            let relative = file.replacingOccurrences(of: fixture.directory + "/", with: "")
            stored.append(
                "\(relative):\(rows.string(row, 1) ?? "") \(rows.string(row, 2) ?? "") \(rows.string(row, 3) ?? "") "
                    + (rows.string(row, 4) ?? ""))
        }
        let expected = fixture.manifest.entries.filter { $0.outcome != "invalid-jws" }.map {
            "\($0.file):\($0.line) \(Self.path(ofPointer: $0.pointer)) \($0.kind) \($0.outcome)"
        }
        #expect(stored.sorted() == expected.sorted())
        #expect(!expected.isEmpty)
    }

    @Test func whatIsNotAJWSIsQuarantined() throws {
        let fixture = try Self.shared.get()
        let planted = fixture.manifest.planted.filter { $0.outcome == "invalid-jws" }
        #expect(!planted.isEmpty)
        #expect(
            try fixture.test.count("SELECT count(*) FROM quarantine WHERE reason_code = 'invalid-jws'") == planted.count
        )
        #expect(try fixture.test.count("SELECT count(*) FROM quarantine") == planted.count)
    }

    @Test func eachVerifiedTransactionIsOnePurchaseWhateverItsShapes() throws {
        let fixture = try Self.shared.get()
        #expect(
            try fixture.test.count("SELECT count(*) FROM purchase WHERE environment = 'Production'")
                == fixture.manifest.verifiedTransactions)
        // A planted forgery never becomes a purchase, not even of a transaction id it claims.
        for planted in fixture.manifest.planted {
            guard let id = planted.transactionID, planted.environment == "Production" else { continue }
            let verifiedElsewhere = fixture.manifest.entries.contains {
                $0.transactionID == id && $0.outcome == "verified"
            }
            if !verifiedElsewhere {
                #expect(try fixture.test.count("SELECT count(*) FROM purchase WHERE transaction_id = '\(id)'") == 0)
            }
        }
    }

    @Test func plantedForgeriesAreFlaggedWithTheirSeverity() throws {
        let fixture = try Self.shared.get()
        for planted in fixture.manifest.planted {
            guard let severity = planted.severity else { continue }
            let subject: (kind: String, key: String)
            if let id = planted.transactionID {
                let environment = planted.environment ?? "Production"
                subject = ("transaction", environment == "Production" ? id : environment.lowercased() + ":" + id)
            } else {
                let receipt = try fixture.test.connection.query(
                    "SELECT r.id FROM receipt r JOIN input_file f ON f.id = r.file_id WHERE f.path = $1 AND r.line = $2",
                    [fixture.directory + "/" + planted.file, planted.line])
                subject = ("receipt", try #require(receipt.string(0, 0)))
            }
            let flag = try fixture.test.connection.query(
                "SELECT severity FROM flag WHERE rule = 'forged-signature' AND subject_kind = $1 AND subject_key = $2",
                [subject.kind, subject.key])
            #expect(flag.rowCount == 1, "\(planted.description): no forged-signature flag on \(subject)")
            #expect(flag.rowCount == 0 || flag.string(0, 0) == severity, "\(planted.description): severity")
        }
    }

    @Test func noTrapIsFlagged() throws {
        let fixture = try Self.shared.get()
        #expect(!fixture.manifest.traps.isEmpty)
        for trap in fixture.manifest.traps {
            for id in trap.transactionIDs {
                let flags = try fixture.test.connection.query(
                    "SELECT rule FROM flag WHERE subject_kind = 'transaction' AND subject_key = $1", [id])
                #expect(flags.rowCount == 0, "\(trap.trap): transaction \(id) flagged")
            }
        }
        #expect(
            try fixture.test.count(
                "SELECT count(*) FROM flag WHERE rule = 'forged-signature'")
                == Set(fixture.manifest.planted.compactMap { $0.severity == nil ? nil : $0.description }).count)
    }

    @Test func ingestingEverythingAgainChangesNothing() throws {
        let fixture = try Self.shared.get()
        let before = try fixture.test.canonicalContents()
        let objects = try fixture.test.count("SELECT count(*) FROM signed_object")
        let summary = try fixture.test.workspace.ingestReceipts(paths: [fixture.directory + "/receipts"])
        #expect(summary.filesAlreadyIngested == summary.filesSeen)
        #expect(try fixture.test.canonicalContents() == before)
        #expect(try fixture.test.count("SELECT count(*) FROM signed_object") == objects)
    }

    @Test func theVerificationReportCountsEachOutcomePerFileAndListsWhatFailed() throws {
        let fixture = try Self.shared.get()
        let table = try ReportRunner(connection: fixture.test.connection).run(
            try ReportRunner.definition(named: "verification"), parameters: [:])
        func column(_ name: String) throws -> Int { try #require(table.columns.firstIndex { $0.name == name }) }
        let kind = try column("row_kind")
        let outcome = try column("outcome")
        let count = try column("signed_objects")
        let line = try column("line")
        let totals = table.rows.filter { $0[kind] == "total" }
        #expect(
            totals.reduce(0) { $0 + (Int($1[count] ?? "") ?? 0) }
                == fixture.manifest.entries.count {
                    $0.outcome != "invalid-jws"
                })
        let failed = table.rows.filter { $0[kind] == "record" }
        let planted = fixture.manifest.entries.filter { $0.outcome != "verified" && $0.outcome != "invalid-jws" }
        #expect(
            failed.map { "\($0[line] ?? ""):\($0[outcome] ?? "")" }.sorted()
                == planted.map { "\($0.line):\($0.outcome)" }.sorted())
    }
}
