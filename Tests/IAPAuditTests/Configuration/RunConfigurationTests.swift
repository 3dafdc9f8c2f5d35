import Foundation
import IAPAudit
import Testing

struct RunConfigurationTests {
    @Test func readsEverySectionAndResolvesPathsAgainstTheFile() throws {
        let configuration = try RunConfiguration.loading(
            """
            # nightly batch
            [inputs]
            catalog = "catalog.json"
            receipts = ["/var/spool/receipts", 'more receipts']   # two folders

            [output]
            directory = "/var/lib/iap-audit/reports"
            formats = ["csv", "json"]

            [reconciliation]
            time_zone = "Europe/Berlin"
            """)
        #expect(configuration.catalogPath?.hasSuffix("/catalog.json") == true)
        #expect(configuration.catalogPath?.hasPrefix("/") == true)
        #expect(configuration.receiptPaths.first == "/var/spool/receipts")
        #expect(configuration.receiptPaths.last?.hasSuffix("/more receipts") == true)
        #expect(configuration.reportFormats == [.csv, .json])
        #expect(configuration.timeZone == "Europe/Berlin")
    }

    @Test func unknownKeysAreErrorsNamingTheKeyAndTheLine() {
        #expect {
            try RunConfiguration.loading("[output]\ndirectory = \"out\"\ndirectroy = \"typo\"\n")
        } throws: { error in
            "\(error)".contains("line 3") && "\(error)".contains("output.directroy")
        }
    }

    @Test func aListOfPathsAlsoTakesOnePath() throws {
        let configuration = try RunConfiguration.loading(
            "[inputs]\nreceipts = \"/one/path\"\nsales = [\"/a\", \"/b\"]\n")
        #expect(configuration.receiptPaths == ["/one/path"])
        #expect(configuration.salesPaths == ["/a", "/b"])
        let roots = try RunConfiguration.loading("[verification]\ntrusted_roots = \"/etc/iap-audit/test-root.der\"\n")
        #expect(roots.trustedRoots == ["/etc/iap-audit/test-root.der"])
    }

    @Test func wrongTypesAndBadValuesAreErrorsNamingTheLine() {
        #expect { try RunConfiguration.loading("[inputs]\nreceipts = 42\n") } throws: { "\($0)".contains("line 2") }
        #expect { try RunConfiguration.loading("[reconciliation]\ntime_zone = \"Mars/Olympus\"\n") } throws: {
            "\($0)".contains("line 2")
        }
        #expect { try RunConfiguration.loading("[output]\nformats = [\"pdf\"]\n") } throws: {
            "\($0)".contains("line 2")
        }
        #expect { try RunConfiguration.loading("[output\n") } throws: { "\($0)".contains("line 1") }
        #expect { try RunConfiguration.loading("[output]\ndirectory = out\n") } throws: {
            "\($0)".contains("quote strings")
        }
    }

    @Test func environmentOverridesTheFileAndEffectiveSettingsMaskPasswords() throws {
        var configuration = try RunConfiguration.loading(
            "[database]\nurl = \"postgresql://audit:hunter2@db.example/iap\"\n")
        try configuration.applyEnvironment(["IAP_AUDIT_OUTPUT_DIR": "/srv/out", "IAP_AUDIT_RECEIPTS": "/a:/b"])
        #expect(configuration.outputDirectory == "/srv/out")
        #expect(configuration.receiptPaths == ["/a", "/b"])
        let shown = configuration.effectiveSettings
        #expect(!shown.contains("hunter2"))
        #expect(shown.contains("postgresql://audit:****@db.example/iap"))
        #expect(shown.contains("output.directory = \"/srv/out\"  # environment"))
        #expect(shown.contains("database.url = \"postgresql://audit:****@db.example/iap\"  # file"))
    }
}

struct DetectionConfigurationTests {
    @Test func ruleThresholdsComeFromTheFileAndTheRestKeepFraudDefaults() throws {
        let configuration = try RunConfiguration.loading(
            """
            [detection.refund_abuse]
            window_days = 30
            [detection.sandbox_in_production]
            tester_account_keys = ["5041a3e2-63c6694a-fb3d6633-6c85ce5b-b6be5894-efcc93f4-4d98c7fe-4a548a68"]
            """)
        #expect(configuration.detection["refund_abuse", "window_days"] == .integer(30))
        #expect(configuration.detection.testerAccountKeys.count == 1)
        let defaults = DetectionSettings()
        for name in ["window_days", "warning_store_accounts", "high_store_accounts"] {
            #expect(configuration.detection["many_store_accounts", name] == defaults["many_store_accounts", name])
        }
    }

    @Test func unknownRuleKeysAndWrongTypesNameTheLine() {
        #expect { try RunConfiguration.loading("[detection.refund_abuse]\nwindow_dayz = 30\n") } throws: {
            "\($0)".contains("line 2") && "\($0)".contains("detection.refund_abuse.window_dayz")
        }
        #expect { try RunConfiguration.loading("[detection.refund_abuse]\nwindow_days = \"thirty\"\n") } throws: {
            "\($0)".contains("line 2")
        }
    }
}
