internal import AppleAPI
internal import Foundation

/// Fetching from Apple (`fetch`, and the first stage of `run` with an `[apple.*]` section): what the spool lacks, then
/// the spool's folders are handed to the ingest stages, so the run audits what Apple has.
package struct FetchStage: PipelineStage {
    /// What to fetch; nil when nothing is configured (or `--no-fetch`): the stage is skipped.
    package var plan: FetchPlan?

    package init(_ plan: FetchPlan?) { self.plan = plan }

    package var name: String { "fetch" }
    package var recordedSettings: [String: String] { ["spool": plan?.spool ?? ""] }

    package func isNeeded(in session: StageSession) -> Bool { plan != nil }

    /// A failure of Apple's (or of a key) ends the fetch but is not thrown: it is the summary's `failure`, so a run
    /// goes on to audit what it has. Database errors are thrown.
    package func run(in session: StageSession) throws -> FetchSummary {
        guard var plan else { return FetchSummary() }
        plan.isDryRun = plan.isDryRun || session.isDryRun
        let summary = try session.workspace.fetch(plan, runID: session.runID, stop: session.stop)
        if plan.reports != nil, FileManager.default.fileExists(atPath: plan.reportsFolder) {
            session.addedInputs[.sales, default: []].append(plan.reportsFolder)
        }
        // History fetched by `fetch history` is archived beside the notifications and audited with them.
        for folder in [plan.notificationsFolder, plan.historyFolder]
        where plan.server != nil && FileManager.default.fileExists(atPath: folder) {
            session.addedInputs[.receipts, default: []].append(folder)
        }
        return summary
    }

    package func outcome(of summary: FetchSummary, in session: StageSession) -> StageOutcome {
        summary.stageOutcome
    }

    package func summaryLines(_ summary: FetchSummary, context: SummaryContext) -> [String] {
        summary.lines(spool: plan?.spool ?? "")
    }

    package func problems(_ summary: FetchSummary) -> [String] { summary.failure.map { [$0] } ?? [] }
}

/// `fetch history`: the transaction and refund history of named transactions, with Apple's revision.
package struct FetchHistoryStage: PipelineStage {
    package var plan: FetchPlan

    package init(_ plan: FetchPlan) { self.plan = plan }

    package var name: String { "fetch history" }
    package var recordedSettings: [String: String] { ["spool": plan.spool] }

    package func run(in session: StageSession) throws -> FetchSummary {
        try session.workspace.fetchHistory(plan, runID: session.runID, stop: session.stop)
    }

    package func outcome(of summary: FetchSummary, in session: StageSession) -> StageOutcome {
        summary.stageOutcome
    }

    package func summaryLines(_ summary: FetchSummary, context: SummaryContext) -> [String] {
        summary.lines(spool: plan.spool)
    }

    package func problems(_ summary: FetchSummary) -> [String] { summary.failure.map { [$0] } ?? [] }
}

extension FetchSummary {
    /// A failed fetch fails with its own exit code (76, 77 or 78).
    var stageOutcome: StageOutcome { failure == nil ? .succeeded : .failed(exitCode: exitCode) }

    /// What a fetch prints: per report kind, notification and history pages, and what the requests cost.
    func lines(spool: String) -> [String] {
        var lines: [String] = []
        let total = self.total
        if reports.isEmpty {
            // No reports configured.
        } else if isDryRun {
            lines.append(
                "dry run: would ask Apple for \(total.pending) reports; \(total.held) already held in \(spool)")
        } else {
            lines.append(
                "fetch: \(total.fetched) reports fetched (\(Self.bytes(total.bytes))) into \(spool), \(total.held) "
                    + "already held, \(total.notPublished) not published yet (asked again next run), \(total.noSales) "
                    + "with no sales (Apple will publish none)"
                    + (total.pending > 0 ? ", \(total.pending) not asked" : ""))
        }
        for (kind, counts) in reports.sorted(by: { $0.key < $1.key }) {
            var parts = ["\(counts.held) held"]
            if isDryRun {
                parts.append("\(counts.pending) to fetch")
            } else {
                parts += [
                    "\(counts.fetched) fetched", "\(counts.notPublished) not published yet",
                    "\(counts.noSales) no sales",
                ]
                if counts.pending > 0 { parts.append("\(counts.pending) not asked") }
            }
            lines.append("  \(kind): " + parts.joined(separator: ", "))
        }
        if let notifications { lines.append(Self.line(notifications, isDryRun: isDryRun)) }
        if let history {
            lines.append(
                isDryRun
                    ? "dry run: would ask Apple for the history of \(history.transactionsAsked) transactions"
                    : "history: \(history.transactionsAsked) transactions asked, \(history.pages) pages stored, "
                        + "\(history.transactions) signed transactions, \(history.refunds) refunded"
                        + (history.unknown.isEmpty
                            ? "" : "; unknown to Apple: " + history.unknown.joined(separator: ", ")))
        }
        if !notPublished.isEmpty {
            let shown = notPublished.sorted().prefix(5).joined(separator: ", ")
            lines.append("  not published yet: \(shown)" + (notPublished.count > 5 ? ", …" : ""))
        }
        if !isDryRun {
            let cost = requestStatistics
            lines.append(
                "requests: \(cost.requests) (\(cost.retries) retries, \(cost.rateLimited) rate-limited), "
                    + "\(Self.bytes(cost.bytes)), "
                    + String(
                        format: "%.1f s on the network, %.1f s backing off, %.1f s in all", cost.networkSeconds,
                        cost.backoffSeconds, seconds))
        }
        return lines
    }

    private static func line(_ notifications: NotificationCounts, isDryRun: Bool) -> String {
        guard !isDryRun else {
            return "dry run: would ask Apple for \(notifications.pendingWindows) windows of notification history"
        }
        return "notifications: \(notifications.notifications) in \(notifications.pages) pages over "
            + "\(notifications.windows) windows, \(notifications.undelivered) Apple never delivered"
            + (notifications.repeatedPages > 0 ? ", \(notifications.repeatedPages) repeated pages skipped" : "")
            + (notifications.restartedWindows > 0
                ? ", \(notifications.restartedWindows) windows restarted (pagination token refused)" : "")
            + (notifications.expiredWindows > 0
                ? ", \(notifications.expiredWindows) unfinished windows older than Apple keeps" : "")
            + (notifications.pendingWindows > 0 ? ", \(notifications.pendingWindows) windows not finished" : "")
    }

    static func bytes(_ count: Int) -> String {
        count < 10_000 ? "\(count) bytes" : String(format: "%.1f MB", Double(count) / 1_000_000)
    }
}
