import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit reconcile [--from DATE] [--to DATE] [--time-zone ZONE]`.
struct ReconcileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Compare recorded purchases with Apple's sales and financial reports; write reconciliation lines.",
        discussion: "Re-running over the same days replaces their lines: the same data gives the same lines. "
            + "Without --from/--to, every day a stored report covers is reconciled.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "First day (YYYY-MM-DD), in the reports' time zone.")
    var from: String?

    @Option(help: "Last day (YYYY-MM-DD), inclusive.")
    var to: String?

    @Option(help: "IANA time zone of the reports' days (else IAP_AUDIT_TIME_ZONE, else America/Los_Angeles).")
    var timeZone: String?

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, ReconcileOptions.day(value) == nil {
                throw ValidationError("\(name) takes a date as YYYY-MM-DD, not \"\(value)\"")
            }
        }
    }

    func run() throws {
        try runReportingFailure {
            // Resolved as `run` resolves it: the flag, else the environment (checked), else the default.
            let (resolved, logger) = try global.resolve { $0.timeZone = timeZone }
            let workspace = try Workspace(settings: resolved.settings, logger: logger)
            let options = ReconcileOptions(
                from: from.flatMap(ReconcileOptions.day), to: to.flatMap(ReconcileOptions.day),
                timeZone: resolved.configuration.timeZone)
            return printed(try workspace.runAlone(ReconcileStage(options)))
        }
    }
}
