import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit fetch [reports]`: download from Apple what the spool lacks (docs/fetching.md).
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download from Apple what the archive lacks: App Store Connect reports.",
        discussion: """
            Reads [apple.connect] and [apple] from --config (each key also IAP_AUDIT_APPLE_<SECTION>_<KEY>). Fetched \
            files are stored verbatim under Apple's names in the spool; `run` ingests them. Exit codes: 76 Apple did \
            not answer within the retry bound, 77 Apple refused the key, 78 configuration (key file, URL).
            """,
        subcommands: [All.self, Reports.self, Notifications.self, History.self], defaultSubcommand: All.self)

    /// `iap-audit fetch`: everything configured.
    struct All: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "all", abstract: "Fetch everything the configuration names (the default).")

        @OptionGroup var options: FetchOptions

        func run() throws { try options.fetch(part: nil) }
    }

    /// `iap-audit fetch reports`: App Store Connect's sales and finance reports.
    struct Reports: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reports", abstract: "Fetch the sales and finance reports [apple.connect] names.")

        @OptionGroup var options: FetchOptions

        func run() throws { try options.fetch(part: .reports) }
    }

    /// `iap-audit fetch notifications [--since DATE]`: the App Store Server API's notification history.
    struct Notifications: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "notifications",
            abstract: "Fetch the notification history of the apps [apple.server] names, failed deliveries too.",
            discussion: """
                Asks for what is new since the last fetch (the first time: as far back as Apple keeps it, 180 days; \
                30 in the sandbox); a fetch that was stopped resumes at its page. The pages are verified at ingest \
                against the [verification] trusted roots, like every signed record.
                """)

        @OptionGroup var options: FetchOptions

        @Option(help: "Fetch from this day (YYYY-MM-DD, UTC) on, also what was fetched before it.")
        var since: String?

        func validate() throws {
            if let since, since.count != 10 || FetchPlan.day(since) == nil {
                throw ValidationError("--since takes a date, YYYY-MM-DD")
            }
        }

        func run() throws { try options.fetch(part: .notifications, notificationsSince: since) }
    }

    /// `iap-audit fetch history --transaction ID…|--flagged|--from-file F`.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "Fetch the transaction and refund history of named transactions from the App Store Server API.",
            discussion: """
                Each transaction's history is asked for after the revision the last fetch of it ended at, so a \
                repeated fetch brings only what changed. Pages are stored under <spool>/history; `run` ingests them.
                """)

        @OptionGroup var options: FetchOptions

        @Option(name: .customLong("transaction"), parsing: .upToNextOption, help: "Transaction ids (repeatable).")
        var transactions: [String] = []

        @Flag(help: "The transactions of open flags: flagged transactions, and those of flagged app accounts.")
        var flagged = false

        @Option(name: .customLong("from-file"), help: "A file of transaction ids, one a line (# comments).")
        var fromFile: String?

        func validate() throws {
            if transactions.isEmpty && !flagged && fromFile == nil {
                throw ValidationError("name the transactions: --transaction ID…, --flagged or --from-file F")
            }
            if let bad = transactions.first(where: { $0.isEmpty || !$0.allSatisfy(\.isNumber) }) {
                throw ValidationError("\(bad) is not a transaction id (digits only)")
            }
        }

        func run() throws {
            var ids = transactions
            if let fromFile {
                guard let data = FileManager.default.contents(atPath: fromFile),
                    let text = String(data: data, encoding: .utf8)
                else { throw ValidationError("cannot read \(fromFile)") }
                for line in text.split(whereSeparator: \.isNewline) {
                    let id =
                        line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                        .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                    guard !id.isEmpty else { continue }
                    guard id.allSatisfy(\.isNumber) else {
                        throw ValidationError("\(fromFile): \(id) is not a transaction id (digits only)")
                    }
                    ids.append(id)
                }
            }
            try options.fetch(part: .history, history: FetchPlan.HistorySubjects(transactionIDs: ids, flagged: flagged))
        }
    }
}

/// What every `fetch` subcommand takes.
struct FetchOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions

    @Option(help: "A TOML configuration file with [apple.connect], [apple.server], [apple] sections.")
    var config: String?

    @Flag(help: "Say what would be fetched; ask Apple nothing.")
    var dryRun = false

    enum Part { case reports, notifications, history }

    func fetch(part: Part?, notificationsSince: String? = nil, history: FetchPlan.HistorySubjects? = nil) throws {
        try runReportingFailure {
            let stop = SignalHandling.installStopHandlers()
            let (resolved, logger) = try global.resolve { $0.configPath = config }
            var configuration = resolved.configuration
            switch part {
            case .reports?:
                configuration.apple.server = [:]
                guard !configuration.apple.connect.isEmpty else {
                    throw IAPAuditError.configuration(
                        "nothing to fetch: set [apple.connect] in --config or IAP_AUDIT_APPLE_CONNECT_* variables")
                }
            case .notifications?, .history?:
                configuration.apple.connect = [:]
                guard !configuration.apple.server.isEmpty else {
                    throw IAPAuditError.configuration(
                        "nothing to fetch: set [apple.server] in --config or IAP_AUDIT_APPLE_SERVER_* variables")
                }
            case nil:
                guard configuration.apple.isConfigured else {
                    throw IAPAuditError.configuration(
                        "nothing to fetch: set [apple.connect] (reports) or [apple.server] (notification history) in "
                            + "--config or IAP_AUDIT_APPLE_* variables")
                }
            }
            var plan = try FetchPlan(configuration.apple, environment: resolved.settings.environment)
            plan.isDryRun = dryRun
            plan.notificationsSince = notificationsSince.flatMap(FetchPlan.day)
            plan.history = history
            let workspace = try Workspace(settings: resolved.settings, logger: logger)
            workspace.onProgress = TerminalProgress.handler(logFormat: resolved.logFormat)
            return try part == .history
                ? printed(workspace.runAlone(FetchHistoryStage(plan), stop: stop))
                : printed(workspace.runAlone(FetchStage(plan), stop: stop))
        }
    }
}
