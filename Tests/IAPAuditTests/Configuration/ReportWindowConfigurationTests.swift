import Foundation
import IAPAudit
import Testing

/// `output.window`: the days of history the batch reports cover, from the file, the environment, and shown.
struct ReportWindowConfigurationTests {
    func load(_ text: String) throws -> RunConfiguration {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("iap-audit.toml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try RunConfiguration.load(path: path)
    }

    @Test func theWindowDefaultsToFiveWeeksAndIsShown() throws {
        let configuration = RunConfiguration()
        #expect(configuration.reportWindow == 35)
        #expect(configuration.effectiveSettings.contains("output.window = 35  # default"))
    }

    @Test func theFileSetsDaysOrAll() throws {
        #expect(try load("[output]\nwindow = 7\n").reportWindow == 7)
        let all = try load("[output]\nwindow = \"all\"\n")
        #expect(all.reportWindow == 0)
        #expect(all.effectiveSettings.contains("output.window = \"all\"  # file"))
        #expect(try load("[output]\nwindow = 0\n").reportWindow == 0)
        #expect(throws: IAPAuditError.self) { try load("[output]\nwindow = \"forever\"\n") }
        #expect(throws: IAPAuditError.self) { try load("[output]\nwindow = -3\n") }
    }

    @Test func theEnvironmentOverridesTheFile() throws {
        var configuration = try load("[output]\nwindow = 7\n")
        configuration.applyEnvironment(["IAP_AUDIT_OUTPUT_WINDOW": "90"])
        #expect(configuration.reportWindow == 90)
        #expect(configuration.effectiveSettings.contains("output.window = 90  # environment"))
        configuration.applyEnvironment(["IAP_AUDIT_OUTPUT_WINDOW": "all"])
        #expect(configuration.reportWindow == 0)
    }
}
