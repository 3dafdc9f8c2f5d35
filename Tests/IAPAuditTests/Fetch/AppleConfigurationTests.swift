import Foundation
import IAPAudit
import Testing

/// The `[apple.*]` configuration: the names scripts rely on, from the file and from the environment.
struct AppleConfigurationTests {
    static let file = """
        [apple.connect]
        issuer_id = "57246542-96fe-1a63-e053-0824d011072a"
        key_id = "2X9R4HXF34"
        private_key_file = "keys/AuthKey_2X9R4HXF34.p8"
        vendor_number = "80012345"
        reports = ["sales-daily", "financial"]
        since = "2025-01-01"

        [apple.server]
        issuer_id = "69a6de7e-1b2c-47e3-e053-5b8c7c11a4d1"
        key_id = "SUBKEY7788"
        private_key_file = "/etc/iap-audit/SubscriptionKey_SUBKEY7788.p8"
        bundle_ids = ["com.example.app"]
        environment = "Sandbox"

        [apple]
        spool = "/var/spool/iap-audit/apple"
        concurrency = 8
        """

    @Test func everyKeyIsReadWithItsSourceAndTheKeyFileIsNamedNotRead() throws {
        var configuration = try RunConfiguration.loading(Self.file)
        try configuration.applyEnvironment([
            "IAP_AUDIT_APPLE_CONNECT_KEY_ID": "ENVKEY0001", "IAP_AUDIT_APPLE_SERVER_BUNDLE_IDS": "com.a,com.b",
        ])
        #expect(configuration.apple.isConfigured)
        let lines = configuration.effectiveSettings.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"apple.connect.key_id = "ENVKEY0001"  # environment"#), "\(lines)")
        #expect(lines.contains(#"apple.server.bundle_ids = "com.a,com.b"  # environment"#), "\(lines)")
        #expect(lines.contains(#"apple.connect.vendor_number = "80012345"  # file"#))
        #expect(lines.contains(#"apple.concurrency = 8  # file"#))
        #expect(
            lines.contains {
                $0.hasPrefix("apple.connect.private_key_file = \"/") && $0.contains("(contents not shown)")
            })
        #expect(lines.contains(#"apple.server.environment = "Sandbox"  # file"#))
    }

    @Test func anUnknownAppleKeyNamesItsLineAndTheKnownKeys() throws {
        #expect {
            _ = try RunConfiguration.loading("[apple.connect]\nvendor = \"1\"\n")
        } throws: { error in
            let text = "\(error)"
            return text.contains("line 2: unknown key apple.connect.vendor")
                && text.contains("apple.connect.vendor_number")
        }
    }

    @Test func aPlanChecksValuesWhereverTheyCameFrom() throws {
        var configuration = try RunConfiguration.loading("[apple]\nconcurrency = 8\n")
        try configuration.applyEnvironment(["IAP_AUDIT_APPLE_CONCURRENCY": "many"])
        #expect {
            _ = try FetchPlan(configuration.apple, environment: [:])
        } throws: { "\($0)".contains("apple.concurrency: takes a number of requests from 1 to 64, not many") }
        var reports = try RunConfiguration.loading("[apple.connect]\nreports = [\"sales-hourly\"]\n")
        reports.apple.connect["private_key_file"] = nil
        #expect {
            _ = try FetchPlan(reports.apple, environment: [:])
        } throws: { "\($0)".contains("apple.connect.private_key_file: is required") }
    }
}
