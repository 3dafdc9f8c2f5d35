import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit flags list|show|confirm|dismiss|reopen|note`: triage with a trail (docs/triage.md).
struct FlagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flags", abstract: "Triage flags: list, show, and confirm, dismiss, reopen or note with a reason.",
        discussion: "Each decision is appended to the flag's log (who, when, why) and sets its status; nothing in the "
            + "log is ever changed or deleted. Works as the pipeline's role or an analyst's (iap_audit_analyst), "
            + "and never migrates. See docs/triage.md.",
        subcommands: [List.self, Show.self, Confirm.self, Dismiss.self, Reopen.self, Note.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List flags, most severe first, then oldest (default: the open queue).")

        @OptionGroup var global: GlobalOptions
        @Option(help: "Only this rule, e.g. purchase-velocity.") var rule: String?
        @Option(help: "Only this severity: info, warning or high.") var severity: String?
        @Option(help: "Only this status: open, confirmed, dismissed, superseded, or all.") var status = "open"
        @Option(help: "Only flags first raised at least this many days ago.") var olderThan: Int?
        @Option(help: "Only flags first raised less than this many days ago.") var newerThan: Int?
        @Option(help: "Only flags on this subject key (account hash, store account, transaction or receipt id).")
        var subject: String?
        @Option(help: "At most this many flags.") var limit: Int?

        func validate() throws {
            if let rule, !DetectionRule.allCases.contains(where: { $0.id == rule }) {
                throw ValidationError(
                    "no rule \(rule); the rules: \(DetectionRule.allCases.map(\.id).joined(separator: ", "))")
            }
            if let severity, !FlagFilter.severities.contains(severity) {
                throw ValidationError("--severity takes \(FlagFilter.severities.joined(separator: ", "))")
            }
            guard status == "all" || FlagFilter.statuses.contains(status) else {
                throw ValidationError("--status takes \(FlagFilter.statuses.joined(separator: ", ")) or all")
            }
            for (name, value) in [("--older-than", olderThan), ("--newer-than", newerThan), ("--limit", limit)] {
                if let value, value < 0 { throw ValidationError("\(name) takes a number of 0 or more") }
            }
        }

        func run() throws {
            try runReportingFailure {
                let (resolved, logger) = try global.resolve()
                let settings = resolved.settings
                var filter = FlagFilter()
                filter.rule = rule
                filter.severity = severity
                filter.status = status == "all" ? nil : status
                filter.olderThanDays = olderThan
                filter.newerThanDays = newerThan
                filter.subject = subject
                filter.limit = limit
                let lines = try TriageDesk(settings: settings, logger: logger).list(filter)
                FlagsPrinter.printTable(lines)
                return 0
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a flag: its evidence and decision history.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The flag's id (flags list prints it).") var id: Int64

        func run() throws {
            try runReportingFailure {
                let (resolved, logger) = try global.resolve()
                let settings = resolved.settings
                guard let detail = try TriageDesk(settings: settings, logger: logger).show(id: id) else {
                    throw IAPAuditError.usage("no flag \(id)")
                }
                FlagsPrinter.print(detail)
                return 0
            }
        }
    }

    struct Confirm: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Confirm a flag: the finding is real.")
        @OptionGroup var decision: DecisionOptions
        func run() throws { try decision.append(.confirm) }
    }

    struct Dismiss: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Dismiss a flag with a reason: "
                + DismissalReason.allCases.map(\.rawValue).joined(separator: ", ") + ".",
            discussion: "It stays dismissed while its finding is unchanged; detect reopens it when its evidence, "
                + "severity, window or score changes. --text is required with --reason other.")
        @OptionGroup var decision: DecisionOptions
        func validate() throws {
            guard let reason = decision.reason else {
                throw ValidationError(
                    "a dismissal takes --reason: " + DismissalReason.allCases.map(\.rawValue).joined(separator: ", "))
            }
            guard DismissalReason(rawValue: reason) != nil else {
                throw ValidationError(
                    "no reason \(reason); the reasons: "
                        + DismissalReason.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
        func run() throws { try decision.append(.dismiss) }
    }

    struct Reopen: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Reopen a confirmed or dismissed flag.")
        @OptionGroup var decision: DecisionOptions
        func run() throws { try decision.append(.reopen) }
    }

    struct Note: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a note to a flag's log; its status stays.")
        @OptionGroup var decision: DecisionOptions
        func run() throws { try decision.append(.note) }
    }
}

/// What every decision takes: the flag, why, and who.
struct DecisionOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The flag's id (flags list prints it).") var id: Int64
    @Option(help: "A dismissal's reason code (flags dismiss --help lists them).") var reason: String?
    @Option(help: "Why, in words: required except for a dismissal with a listed reason.") var text = ""
    @Option(
        name: .customLong("as"),
        help: "Who decides (default: IAP_AUDIT_ANALYST, else the OS user); analysts may share one machine.")
    var analyst: String?

    func append(_ action: TriageAction) throws {
        try runReportingFailure {
            if action != .dismiss, reason != nil {
                throw IAPAuditError.usage("only a dismissal takes --reason; say why with --text")
            }
            if (action != .dismiss || reason == DismissalReason.other.rawValue)
                && text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            {
                throw IAPAuditError.usage("\(action.rawValue) needs --text saying why")
            }
            let (resolved, logger) = try global.resolve()
            let settings = resolved.settings
            guard let actor = AnalystName.resolve(flag: analyst, environment: settings.environment) else {
                throw IAPAuditError.usage("cannot tell who decides: pass --as NAME or set \(AnalystName.variable)")
            }
            let record = try TriageDesk(settings: settings, logger: logger).decide(
                TriageDecision(
                    flagID: id, action: action, reason: reason.flatMap(DismissalReason.init(rawValue:)), text: text,
                    actor: actor))
            print(FlagsPrinter.describe(record))
            return 0
        }
    }
}
