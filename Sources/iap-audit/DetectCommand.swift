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

    @Option(help: "A TOML configuration file: its [detection.<rule>] settings (see `iap-audit config check`).")
    var config: String?

    @Option(name: .customLong("rule"), help: "Run only this rule (repeatable); all rules by default.")
    var ruleNames: [String] = []

    @Option(name: .customLong("tester-account"), help: "An account key allowed to post sandbox receipts (repeatable).")
    var testerAccounts: [String] = []

    @Flag(help: "Rebuild the store-account clusters from every receipt instead of extending them.")
    var rebuildStoreAccounts = false

    @Flag(
        help: """
            Evaluate every subject, as the first run does, instead of only those whose data changed since the last \
            run. The flags are the same either way; a changed configuration makes the next run full by itself.
            """)
    var full = false

    func validate() throws {
        for name in ruleNames where DetectionRule(rawValue: name) == nil {
            throw ValidationError(
                "unknown rule '\(name)'; rules: " + DetectionRule.allCases.map(\.id).joined(separator: ", "))
        }
    }

    func run() throws {
        try runReportingFailure {
            let stop = SignalHandling.installStopHandlers()
            let (resolved, logger) = try global.resolve { $0.configPath = config }
            let workspace = try Workspace(settings: resolved.settings, logger: logger)
            var detection = resolved.configuration.detection
            detection.testerAccountKeys += testerAccounts
            let rules = ruleNames.isEmpty ? DetectionRule.allCases : ruleNames.compactMap(DetectionRule.init(rawValue:))
            let stage = DetectStage(
                rules: rules, settings: detection, rebuildStoreAccounts: rebuildStoreAccounts, full: full)
            return printed(try workspace.runAlone(stage, stop: stop))
        }
    }

}
