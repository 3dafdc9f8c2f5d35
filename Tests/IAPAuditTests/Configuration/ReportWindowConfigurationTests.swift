import Foundation
import IAPAudit
import Testing

/// `output.window`: the days of history the batch reports cover, from the file, the environment, and shown.
struct ReportWindowConfigurationTests {
    @Test func theWindowDefaultsToFiveWeeksAndIsShown() throws {
        let configuration = RunConfiguration()
        #expect(configuration.reportWindow == 35)
        #expect(configuration.effectiveSettings.contains("output.window = 35  # default"))
    }

    @Test func theFileSetsDaysOrAll() throws {
        #expect(try RunConfiguration.loading("[output]\nwindow = 7\n").reportWindow == 7)
        let all = try RunConfiguration.loading("[output]\nwindow = \"all\"\n")
        #expect(all.reportWindow == 0)
        #expect(all.effectiveSettings.contains("output.window = \"all\"  # file"))
        #expect(try RunConfiguration.loading("[output]\nwindow = 0\n").reportWindow == 0)
        #expect(throws: IAPAuditError.self) { try RunConfiguration.loading("[output]\nwindow = \"forever\"\n") }
        #expect(throws: IAPAuditError.self) { try RunConfiguration.loading("[output]\nwindow = -3\n") }
    }

    @Test func theEnvironmentOverridesTheFile() throws {
        var configuration = try RunConfiguration.loading("[output]\nwindow = 7\n")
        try configuration.applyEnvironment(["IAP_AUDIT_OUTPUT_WINDOW": "90"])
        #expect(configuration.reportWindow == 90)
        #expect(configuration.effectiveSettings.contains("output.window = 90  # environment"))
        try configuration.applyEnvironment(["IAP_AUDIT_OUTPUT_WINDOW": "all"])
        #expect(configuration.reportWindow == 0)
    }
}
