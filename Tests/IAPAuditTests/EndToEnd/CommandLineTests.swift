import Foundation
import IAPAudit
import Postgres
import SyntheticData
import TestSupport
import Testing

/// The `iap-audit` binary as users and cron drive it: output, files and exit codes.
struct CommandLineTests {
    @Test func hashUsernamePrintsApplesFormatAndAppliesThePepper() throws {
        let plain = try BinaryUnderTest.run(["hash-username", "userNameOnYourServer"])
        #expect(plain.status == 0)
        #expect(plain.stdout == "5041a3e2-63c6694a-fb3d6633-6c85ce5b-b6be5894-efcc93f4-4d98c7fe-4a548a68\n")
        let peppered = try BinaryUnderTest.run(
            ["hash-username", "userNameOnYourServer"],
            environment: ["IAP_AUDIT_PEPPER": String(repeating: "s3cret", count: 6)])
        #expect(peppered.status == 0)
        #expect(peppered.stdout != plain.stdout)
        #expect(peppered.stdout.count == 72)
    }

    @Test func strictIngestExitsSixtyFiveWhenARecordIsQuarantined() throws {
        let test = try TestWorkspace()
        let path = try test.write("bad.jsonl", "{not json}\n")
        let lenient = try BinaryUnderTest.run(["ingest", "receipts", "--database-url", test.conninfo, path])
        #expect(lenient.status == 0)
        #expect(lenient.stdout.contains("1 quarantined"))
        let path2 = try test.write("bad2.jsonl", "{still not json}\n")
        let strict = try BinaryUnderTest.run(["ingest", "receipts", "--strict", "--database-url", test.conninfo, path2])
        #expect(strict.status == 65)
    }

    @Test func unreachableDatabaseExitsSixtyNineWithAClearMessage() throws {
        let result = try BinaryUnderTest.run(
            ["init", "--database-url", "host=/nonexistent-socket-dir port=5432 dbname=x connect_timeout=2"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("database unavailable"))
    }

    @Test func aSecondRunWhileTheLockIsHeldExitsSeventyFiveNamingTheHolder() throws {
        let test = try TestWorkspace()
        let holder = try Connection(
            conninfo: test.conninfo, applicationName: "holder-under-test", logger: TestPostgres.logger)
        #expect(try holder.tryAdvisoryLock(Workspace.runLockKey))
        let result = try BinaryUnderTest.run(
            ["run", "--database-url", test.conninfo, "--out", test.directory.appendingPathComponent("out").path])
        #expect(result.status == 75)
        #expect(result.stderr.contains("holder-under-test"))
        try holder.advisoryUnlock(Workspace.runLockKey)
        let next = try BinaryUnderTest.run(
            ["run", "--database-url", test.conninfo, "--out", test.directory.appendingPathComponent("out").path])
        #expect(next.status == 0)
    }

    @Test func missingInputPathExitsSixtySix() throws {
        let test = try TestWorkspace()
        let result = try BinaryUnderTest.run(
            ["ingest", "receipts", "--database-url", test.conninfo, "/nonexistent/receipts"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("no such file or directory"))
    }

    @Test func catalogImportThenExportRoundTripsTheProductList() throws {
        let test = try TestWorkspace()
        let catalog = try test.write(
            "catalog.json",
            #"{"apps": [{"bundle_id": "com.example.game", "apple_id": "312716560", "sku": "GAME1", "name": "Game"}], "products": [{"product_id": "com.example.game.coins100", "bundle_id": "com.example.game", "type": "consumable"}, {"product_id": "com.example.game.pro", "bundle_id": "com.example.game", "type": "non-consumable"}]}"#
        )
        #expect(try BinaryUnderTest.run(["catalog", "import", "--database-url", test.conninfo, catalog]).status == 0)
        let plist = try test.write(
            "ids.plist",
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array><string>com.example.game.pro</string></array></plist>"#
        )
        let listImport = try BinaryUnderTest.run(
            ["catalog", "import", "--database-url", test.conninfo, "--bundle-id", "com.example.game", plist])
        #expect(listImport.status == 0)
        #expect(listImport.stdout.contains("1 retired"))
        let out = test.directory.appendingPathComponent("export").path
        #expect(
            try BinaryUnderTest.run(["catalog", "export", "--database-url", test.conninfo, "--out", out]).status == 0)
        let exported = try Data(contentsOf: URL(fileURLWithPath: out + "/com.example.game/products_v1.json"))
        #expect(try JSONDecoder().decode([String].self, from: exported) == ["com.example.game.pro"])
        #expect(try test.count("SELECT count(*) FROM product WHERE is_retired") == 1)
        #expect(try test.count("SELECT count(*) FROM app WHERE sku = 'GAME1'") == 1)
    }

    @Test func reportWritesEachFormat() throws {
        let test = try TestWorkspace()
        _ = try test.workspace.ingestReceipts(paths: [try test.write("r.jsonl", "{broken\n")])
        for format in ["csv", "json", "md", "html"] {
            let result = try BinaryUnderTest.run(
                ["report", "quarantine", "--database-url", test.conninfo, "--format", format])
            #expect(result.status == 0)
            #expect(result.stdout.contains("invalid-json"))
        }
        let unknown = try BinaryUnderTest.run(["report", "nope", "--database-url", test.conninfo])
        #expect(unknown.status == 64)
    }
}
