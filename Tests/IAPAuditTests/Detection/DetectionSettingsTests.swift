import Foundation
import Testing

@testable import IAPAudit

@Suite struct DetectionSettingsTests {
    @Test func defaultsAreFraudMDs() {
        let settings = DetectionSettings()
        #expect(settings.manyStoreAccounts.warningStoreAccounts == 3)
        #expect(settings.manyStoreAccounts.highStoreAccounts == 5)
        #expect(settings.invalidReceipts.countedStatuses == [21002, 21003, 21010])
        #expect(settings.refundAbuse.windowDays == 90)
        #expect(settings.trialCycling.windowDays == 180)
    }

    @Test func aPartialDocumentKeepsTheOtherDefaults() throws {
        let json = #"{"many_store_accounts": {"warning_store_accounts": 4}, "refund_abuse": {"min_refund_rate": 0.75}}"#
        let decoded = try JSONDecoder().decode(DetectionSettings.self, from: Data(json.utf8))
        var expected = DetectionSettings()
        expected.manyStoreAccounts.warningStoreAccounts = 4
        expected.refundAbuse.minRefundRate = 0.75
        #expect(decoded == expected)
    }

    @Test func roundTripsThroughItsRecordedJSON() throws {
        var settings = DetectionSettings()
        settings.sandboxInProduction.testerAccountKeys = ["k1", "k2"]
        let decoded = try JSONDecoder().decode(DetectionSettings.self, from: Data(try settings.jsonText().utf8))
        #expect(decoded == settings)
    }

    /// Every `$1::jsonb ->> 'name'` a rule reads must be a key its settings encode: a typo would read NULL.
    @Test(arguments: DetectionRule.allCases) func ruleReadsOnlyKeysItsSettingsHave(rule: DetectionRule) throws {
        let sql = try rule.sql()
        let object = try JSONSerialization.jsonObject(with: Data(try DetectionSettings().jsonText(for: rule).utf8))
        let keys = Set((object as? [String: Any] ?? [:]).keys)
        var read: Set<String> = []
        let pattern = try NSRegularExpression(pattern: #"\$1::jsonb\s*->>?\s*'([a-z_]+)'"#)
        for match in pattern.matches(in: sql, range: NSRange(sql.startIndex..., in: sql)) {
            if let range = Range(match.range(at: 1), in: sql) { read.insert(String(sql[range])) }
        }
        #expect(read.isSubset(of: keys), "\(rule.id) reads \(read.subtracting(keys).sorted())")
        #expect(keys.isSubset(of: read), "\(rule.id) ignores \(keys.subtracting(read).sorted())")
        #expect(try rule.version() >= 1)
    }

    /// A planning header the detector does not know would be ignored without a word: `every subject` takes one value.
    @Test(arguments: DetectionRule.allCases) func ruleHeaderNamesAKnownPlan(rule: DetectionRule) throws {
        let header = try rule.sql().split(separator: "\n").prefix { $0.hasPrefix("--") }
        let plans = header.filter { $0.hasPrefix("-- every subject:") }
        #expect(plans.count <= 1, "\(rule.id) names its plan more than once")
        #expect(plans.isEmpty == !(try rule.hashesEverySubject()), "\(rule.id): \(plans.first ?? "")")
    }
}
