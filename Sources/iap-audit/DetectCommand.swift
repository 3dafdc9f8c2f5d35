import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit detect`: run the fraud rules over what is stored and write flags.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Run the fraud rules (docs/fraud-rules.md) and write flags with their evidence.",
        discussion: "Rules: " + DetectionRule.allCases.map(\.id).joined(separator: ", ")
            + ". Re-running over unchanged data creates nothing new.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("rule"), help: "Run only this rule (repeatable); all rules by default.")
    var ruleNames: [String] = []

    @Option(name: .customLong("tester-account"), help: "An account key allowed to post sandbox receipts (repeatable).")
    var testerAccounts: [String] = []

    @Flag(help: "Rebuild the store-account clusters from every receipt instead of extending them.")
    var rebuildStoreAccounts = false

    func validate() throws {
        for name in ruleNames where DetectionRule(rawValue: name) == nil {
            throw ValidationError(
                "unknown rule '\(name)'; rules: " + DetectionRule.allCases.map(\.id).joined(separator: ", "))
        }
    }

    func run() throws {
        try runReportingFailure {
            let stop = SignalHandling.installStopHandlers()
            let (settings, logger) = try global.settings()
            let workspace = try Workspace(settings: settings, logger: logger)
            var detection = DetectionSettings()
            detection.sandboxInProduction.testerAccountKeys = testerAccounts
            let rules = ruleNames.isEmpty ? DetectionRule.allCases : ruleNames.compactMap(DetectionRule.init(rawValue:))
            let summary = try workspace.detect(
                rules: rules, settings: detection, rebuildStoreAccounts: rebuildStoreAccounts, stop: stop)
            let clusters = summary.storeAccounts
            print(
                "store accounts: \(clusters.filesRead) files folded in, \(clusters.clustersWritten) clusters written, "
                    + "\(clusters.renamed) renamed" + (clusters.isRebuilt ? " (rebuilt)" : ""))
            for rule in summary.rules {
                print(
                    "\(rule.rule) v\(rule.version): \(rule.hits) hits, \(rule.created) new, \(rule.updated) updated "
                        + "(\(String(format: "%.2f", rule.seconds)) s)")
            }
            print("flags: \(summary.created) new, \(summary.updated) updated")
            return 0
        }
    }
}
