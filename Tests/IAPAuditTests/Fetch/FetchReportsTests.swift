import AppleStandIn
import Crypto
import Foundation
import IAPAudit
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `iap-audit fetch` and `run` against a stand-in for App Store Connect: what is fetched, stored and ingested, and
/// how failures end.
@Suite(.serialized) struct FetchReportsTests {
    @Test func aFirstRunFetchesTheYearAndTheNextDayOnlyWhatIsNew() throws {
        let test = try TestWorkspace()
        let apple = try AppleFixture(test: test)
        let config = try apple.configuration()
        let out = test.directory.appendingPathComponent("out").path
        let first = try BinaryUnderTest.run(["run", "--config", config, "--out", out, "--report", "reconciliation"])
        #expect(first.status == 0, "\(first.stderr)")
        // 365 days less the two without sales and the one not published; eleven fiscal months of twelve.
        #expect(
            first.stdout.contains("sales-daily: 0 held, 362 fetched, 1 not published yet, 2 no sales"),
            "\(first.stdout)")
        #expect(
            first.stdout.contains("financial: 0 held, 11 fetched, 1 not published yet, 0 no sales"), "\(first.stdout)")
        let stored = apple.spooledReports
        #expect(stored.count == 373)
        #expect(stored.contains("S_D_80012345_20250101.txt.gz") && stored.contains("80012345_1125_ZZ.txt.gz"))
        #expect(!stored.contains { $0.hasPrefix(".") }, "a partial file stayed behind")
        // The bytes stored are the bytes Apple sent.
        let january = try Data(contentsOf: URL(fileURLWithPath: apple.spool + "/reports/S_D_80012345_20250101.txt.gz"))
        let sent = try Data(
            contentsOf: test.directory.appendingPathComponent("apple-source/reports/S_D_80012345_20250101.txt.gz"))
        #expect(january == sent)
        // Ingested in the same run, through `ingest sales`.
        #expect(try test.count("SELECT count(*) FROM input_file WHERE kind = 'sales'") == 373)
        #expect(try test.count("SELECT count(*) FROM apple_report_fetch WHERE outcome = 'stored'") == 373)
        let firstRequests = apple.reportRequests.count
        #expect(firstRequests == 365 + 12)

        apple.standIn.publish(through: "2025-12-31")
        let second = try BinaryUnderTest.run(["run", "--config", config, "--out", out, "--report", "reconciliation"])
        #expect(second.status == 0, "\(second.stderr)")
        let asked = apple.reportRequests.dropFirst(firstRequests)
        #expect(asked.count == 2, "\(Array(asked))")
        #expect(
            asked.contains {
                $0.contains("filter%5BreportDate%5D=2025-12-31") || $0.contains("filter[reportDate]=2025-12-31")
            })
        #expect(
            second.stdout.contains("sales-daily: 364 held, 1 fetched, 0 not published yet, 0 no sales"),
            "\(second.stdout)")
        #expect(try test.count("SELECT count(*) FROM input_file WHERE kind = 'sales'") == 375)
    }

    @Test func aDryRunSaysWhatItWouldFetchAndAsksNothing() throws {
        let test = try TestWorkspace()
        let apple = try AppleFixture(test: test)
        let result = try BinaryUnderTest.run(["fetch", "--dry-run", "--config", try apple.configuration()])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("would ask Apple for 377 reports"), "\(result.stdout)")
        #expect(apple.standIn.requests.isEmpty)
        #expect(apple.spooledReports.isEmpty)
    }

    @Test func aStormOf429sIsSurvivedWithinTheBound() throws {
        let test = try TestWorkspace()
        let apple = try AppleFixture(test: test)
        apple.standIn.inject(.tooManyRequests(retryAfter: 1), times: 6)
        apple.standIn.inject(.serverError, times: 2)
        apple.standIn.inject(.cutBody)
        let config = try apple.configuration(
            reports: ["sales-monthly"], extra: "concurrency = 2\ntimeout = 5\nretry_seconds = 60")
        let result = try apple.fetchReports(
            config: config, summarising: "sales-monthly: 0 held, 0 fetched, 1 not published yet, 11 no sales")
        #expect(result.stdout.contains("6 rate-limited"), "\(result.stdout)")
    }

    @Test func aRetryWaitsAtLeastWhatRetryAfterAsks() throws {
        let test = try TestWorkspace()
        let apple = try AppleFixture(test: test)
        // Without the header, the first backoff is 0.5 to 1 s; Apple asks for 3.
        apple.standIn.inject(.tooManyRequests(retryAfter: 3))
        let config = try apple.configuration(reports: ["sales-yearly"], extra: "concurrency = 1")
        let result = try BinaryUnderTest.run(["fetch", "reports", "--config", config])
        #expect(result.status == 0, "\(result.stderr)")
        let backoff = result.stdout.firstMatch(of: /([0-9.]+) s backing off/).flatMap { Double($0.1) } ?? 0
        #expect(backoff >= 3 && backoff < 5, "\(result.stdout)")
    }

    @Test func aStopRequestEndsARetryWaitAtOnce() throws {
        let test = try TestWorkspace()
        let apple = try AppleFixture(test: test)
        apple.standIn.inject(.tooManyRequests(retryAfter: 120), times: 10)
        let config = try apple.configuration(reports: ["sales-yearly"], extra: "retry_seconds = 600")
        let (process, stdout, stderr) = try BinaryUnderTest.start(["fetch", "reports", "--config", config])
        defer {
            try? FileManager.default.removeItem(at: stdout)
            try? FileManager.default.removeItem(at: stderr)
        }
        let asked = Date().addingTimeInterval(60)
        while apple.reportRequests.isEmpty && Date() < asked { usleep(20_000) }
        usleep(300_000)
        let stopped = Date()
        process.terminate()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        #expect(!process.isRunning, "SIGTERM waited out Retry-After")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        #expect(Date().timeIntervalSince(stopped) < 10)
        #expect(
            try test.count("SELECT count(*) FROM pipeline_run WHERE command = 'fetch' AND outcome = 'interrupted'") == 1
        )
    }

    @Test func aResponseThatNeverEndsIsCutByTheTimeoutAndRetried() throws {
        let test = try TestWorkspace()
        let apple = try AppleFixture(test: test)
        apple.standIn.inject(.neverEnding)
        let config = try apple.configuration(
            reports: ["sales-yearly", "financial"], until: "2025-03-31", extra: "concurrency = 1\ntimeout = 2")
        let result = try BinaryUnderTest.run(["fetch", "--config", config], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("financial: 0 held, 3 fetched"), "\(result.stdout)")
        #expect(result.stdout.contains("1 retries"), "\(result.stdout)")
    }

    @Test func whenTheRetryBoundIsSpentTheFetchFailsWithItsOwnCodeAndTheRunGoesOn() throws {
        let test = try TestWorkspace()
        let apple = try AppleFixture(test: test)
        apple.standIn.inject(.tooManyRequests(retryAfter: 30), times: 1000)
        let config = try apple.configuration(reports: ["sales-monthly"], extra: "retry_seconds = 5")
        let out = test.directory.appendingPathComponent("out").path
        let result = try BinaryUnderTest.run(["run", "--config", config, "--out", out, "--report", "reconciliation"])
        #expect(result.status == 76, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("the retry bound is spent"), "\(result.stderr)")
        #expect(result.stderr.contains("429"), "\(result.stderr)")
        // Detection, reconciliation and reports still ran.
        #expect(FileManager.default.fileExists(atPath: out + "/index.html"))
        #expect(try test.count("SELECT count(*) FROM pipeline_run WHERE command = 'run' AND exit_code = 76") == 1)
    }

    @Test func aKeyAppleDoesNotKnowFailsClearlyWithoutPrintingSecrets() throws {
        let test = try TestWorkspace()
        let apple = try AppleFixture(test: test)
        let otherKey = P256.Signing.PrivateKey()
        let otherPath = test.directory.appendingPathComponent("Other.p8").path
        try AppleFixture.writeKey(otherKey, to: otherPath)
        let result = try BinaryUnderTest.run(
            ["fetch", "--config", try apple.configuration(keyPath: otherPath), "--log-level", "trace"])
        #expect(result.status == 77, "\(result.stderr)")
        #expect(result.stderr.contains("Apple refused key \(AppleFixture.keyID)"), "\(result.stderr)")
        #expect(result.stderr.contains("401"))
        let output = result.stdout + result.stderr
        let keyBody = otherKey.pemRepresentation.split(separator: "\n").dropFirst().first.map(String.init) ?? "?"
        #expect(!output.contains(keyBody), "the private key was printed")
        #expect(!output.contains("eyJ"), "a token was printed")
    }

    @Test func aKeyFileOthersCanReadIsRefused() throws {
        let test = try TestWorkspace()
        let apple = try AppleFixture(test: test)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: apple.keyPath)
        let result = try BinaryUnderTest.run(["fetch", "--config", try apple.configuration()])
        #expect(result.status == 78)
        #expect(result.stderr.contains("can be read by other users (mode 644)"), "\(result.stderr)")
        #expect(result.stderr.contains("chmod 600"))
        #expect(apple.standIn.requests.isEmpty)
    }

    @Test func plainHTTPIsRefusedForAnyHostButLoopback() throws {
        let test = try TestWorkspace()
        let apple = try AppleFixture(test: test)
        let config = try apple.configuration()
        let text = try String(contentsOfFile: config, encoding: .utf8).replacingOccurrences(
            of: apple.url, with: "http://api.example.com")
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try BinaryUnderTest.run(["fetch", "--config", config])
        #expect(result.status == 78)
        #expect(result.stderr.contains("http:// is accepted only for a loopback host"), "\(result.stderr)")
    }

    @Test func noFetchSkipsTheFetchAndEnvironmentVariablesConfigureIt() throws {
        let test = try TestWorkspace()
        let apple = try AppleFixture(test: test)
        let out = test.directory.appendingPathComponent("out").path
        let skipped = try BinaryUnderTest.run(
            ["run", "--config", try apple.configuration(), "--no-fetch", "--out", out, "--report", "reconciliation"])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(apple.standIn.requests.isEmpty)
        let bare = try test.write("bare.toml", "[database]\nurl = \"\(test.conninfo)\"\n")
        let environment = [
            "IAP_AUDIT_APPLE_CONNECT_ISSUER_ID": AppleFixture.issuerID,
            "IAP_AUDIT_APPLE_CONNECT_KEY_ID": AppleFixture.keyID,
            "IAP_AUDIT_APPLE_CONNECT_PRIVATE_KEY_FILE": apple.keyPath,
            "IAP_AUDIT_APPLE_CONNECT_VENDOR_NUMBER": AppleFixture.vendor,
            "IAP_AUDIT_APPLE_CONNECT_REPORTS": "sales-yearly", "IAP_AUDIT_APPLE_CONNECT_SINCE": "2025-01-01",
            "IAP_AUDIT_APPLE_CONNECT_UNTIL": "2025-12-31", "IAP_AUDIT_APPLE_CONNECT_URL": apple.url,
            "IAP_AUDIT_APPLE_SPOOL": apple.spool,
        ]
        let fetched = try BinaryUnderTest.run(["fetch", "--config", bare], environment: environment)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(
            fetched.stdout.contains("sales-yearly: 0 held, 0 fetched, 1 not published yet, 0 no sales"),
            "\(fetched.stdout)")
        #expect(apple.reportRequests.count == 1)
    }
}
