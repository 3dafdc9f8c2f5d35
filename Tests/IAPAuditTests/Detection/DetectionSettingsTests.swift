import Foundation
import Testing

@testable import IAPAudit

@Suite struct DetectionSettingsTests {
    @Test func defaultsAreTheRulesHeaders() {
        let settings = DetectionSettings()
        #expect(settings["many_store_accounts", "warning_store_accounts"] == .integer(3))
        #expect(settings["many_store_accounts", "high_store_accounts"] == .integer(5))
        #expect(
            settings["invalid_receipts", "counted_statuses"]
                == .list([.integer(21002), .integer(21003), .integer(21010)], of: .integer))
        #expect(settings["refund_abuse", "window_days"] == .integer(90))
        #expect(settings["refund_abuse", "min_refund_rate"] == .number(0.5))
        #expect(settings["trial_cycling", "window_days"] == .integer(180))
        #expect(settings.testerAccountKeys == [])
    }

    /// The settings JSON recorded with each run, as the typed settings structs wrote it before rules declared their
    /// settings in their headers: a changed text would make the next detect after an upgrade a full one.
    @Test func recordedJSONIsUnchanged() throws {
        #expect(
            try DetectionSettings().jsonText()
                == #"{"forged_fields":{"max_expiry_years_ahead":10},"invalid_receipts":{"counted_statuses":[21002,21003,21010],"high_receipts":5,"info_statuses":[21003],"warning_receipts":3,"window_hours":24},"#
                + #""many_store_accounts":{"burst_hours":24,"burst_new_store_accounts":2,"high_store_accounts":5,"warning_store_accounts":3,"window_days":30},"#
                + #""purchase_velocity":{"long_window_hours":24,"long_window_purchases":10,"short_window_minutes":60,"short_window_purchases":3},"#
                + #""receipt_replay":{"min_accounts_per_original_transaction":3,"min_accounts_per_receipt":2,"min_accounts_per_transaction":2,"window_days":30},"#
                + #""refund_abuse":{"high_refunds":3,"ignored_cancellation_reasons":[1],"min_purchases_for_rate":4,"min_refund_rate":0.5,"warning_declined_requests":3,"warning_refunds":2,"window_days":90},"#
                + #""sandbox_in_production":{"tester_account_keys":[]},"shared_store_account":{"min_app_accounts":3,"window_days":30},"#
                + #""trial_cycling":{"min_intro_offer_starts":2,"window_days":180}}"#)
    }

    @Test func aPartialDocumentKeepsTheOtherDefaults() throws {
        let json = #"{"many_store_accounts": {"warning_store_accounts": 4}, "refund_abuse": {"min_refund_rate": 0.75}}"#
        let decoded = try JSONDecoder().decode(DetectionSettings.self, from: Data(json.utf8))
        var expected = DetectionSettings()
        expected["many_store_accounts", "warning_store_accounts"] = .integer(4)
        expected["refund_abuse", "min_refund_rate"] = .number(0.75)
        #expect(decoded == expected)
        #expect(decoded != DetectionSettings())
    }

    @Test func aValueOfTheWrongTypeIsRefusedNamingTheSetting() {
        for json in [
            #"{"refund_abuse": {"window_days": 1.5}}"#, #"{"refund_abuse": {"window_days": "30"}}"#,
            #"{"invalid_receipts": {"counted_statuses": ["21002"]}}"#, #"{"refund_abuse": 3}"#,
        ] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(DetectionSettings.self, from: Data(json.utf8))
            }
        }
    }

    @Test func roundTripsThroughItsRecordedJSON() throws {
        var settings = DetectionSettings()
        settings.testerAccountKeys = ["k1", "k2"]
        let decoded = try JSONDecoder().decode(DetectionSettings.self, from: Data(try settings.jsonText().utf8))
        #expect(decoded == settings)
        #expect(decoded.testerAccountKeys == ["k1", "k2"])
    }

    /// Every rule's header reads: its name, version and settings (the build ships whatever `sql/rules/` holds).
    @Test(arguments: DetectionRule.allCases) func ruleHeaderReads(rule: DetectionRule) throws {
        try rule.checkHeader()
    }

    @Test func aBadSettingDeclarationIsNamed() throws {
        for declaration in [
            "window_days = 30", "window_days integer 30", "WindowDays integer = 30", "window_days count = 30",
            "window_days integer = 1.5", "keys text[] = [1]", "keys integer[][] = []",
        ] {
            #expect(throws: RuleSetting.Problem.self, "\(declaration)") { try RuleSetting(declaration: declaration) }
        }
        #expect(
            try RuleSetting(declaration: "keys text[] = []").defaultValue == .list([], of: .text))
    }

    /// Every `$1::jsonb ->> 'name'` a rule reads must be a key its settings encode: a typo would read NULL.
    @Test(arguments: DetectionRule.allCases) func ruleReadsOnlyKeysItsSettingsHave(rule: DetectionRule) throws {
        let sql = rule.sql()
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
        let header = rule.sql().split(separator: "\n").prefix { $0.hasPrefix("--") }
        let plans = header.filter { $0.hasPrefix("-- every subject:") }
        #expect(plans.count <= 1, "\(rule.id) names its plan more than once")
        #expect(plans.isEmpty == !rule.hashesEverySubject(), "\(rule.id): \(plans.first ?? "")")
    }
}
