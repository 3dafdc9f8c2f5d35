internal import AppleAPI
internal import Foundation
internal import Logging
internal import Postgres

/// `fetch history`: the transaction and refund history of named transactions, with Apple's revision.
extension Workspace {
    /// The work of `FetchHistoryStage`: the history of the transactions `plan.history` names.
    func fetchHistory(_ plan: FetchPlan, runID: Int64, stop: StopRequest) throws -> FetchSummary {
        let started = Date()
        var summary = FetchSummary()
        summary.isDryRun = plan.isDryRun
        if let server = plan.server, let subjects = plan.history {
            try fetchHistory(subjects, server: server, plan: plan, runID: runID, stop: stop, into: &summary)
        }
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// The transactions `subjects` names, in the configured environment.
    func historyTransactionIDs(_ subjects: FetchPlan.HistorySubjects, environment: String) throws -> [String] {
        var ids = subjects.transactionIDs
        if subjects.flagged {
            let prefix = environment == "Production" ? "" : "sandbox:"
            let flagged = try connection.query(
                SQLQuery.historyFlaggedTransactions.text, [environment, prefix],
                context: "find the transactions of open flags")
            ids += try flagged.allRows.compactMap { row in try row.string("id") }
        }
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }

    private func fetchHistory(
        _ subjects: FetchPlan.HistorySubjects, server: FetchPlan.ServerPlan, plan: FetchPlan, runID: Int64,
        stop: StopRequest, into summary: inout FetchSummary
    ) throws {
        var counts = FetchSummary.HistoryCounts()
        defer { summary.history = counts }
        let ids = try historyTransactionIDs(subjects, environment: server.environment)
        var list: [HistoryFetcher.Subject] = []
        for id in ids {
            guard !id.isEmpty, id.allSatisfy(\.isNumber) else {
                throw IAPAuditError.usage("\(id) is not a transaction id (digits only)")
            }
            let known = try connection.query(
                SQLQuery.historyKnownTransaction.text, [id, server.environment],
                context: "read what is known of a transaction")
            let bundle = try known.first(String?.self, "bundle_id")
            let bundles = (bundle.map { [$0] } ?? []) + server.bundleIDs.filter { $0 != bundle }
            list.append(
                .init(
                    kind: .transactions, environment: server.environment, transactionID: id, bundleIDs: bundles,
                    revision: try known.first(String?.self, "transactions_revision")))
            list.append(
                .init(
                    kind: .refunds, environment: server.environment, transactionID: id, bundleIDs: bundles,
                    revision: try known.first(String?.self, "refunds_revision")))
        }
        counts.transactionsAsked = ids.count
        guard !plan.isDryRun, !list.isEmpty else { return }
        try runServerFetch(
            HistoryFetcher.self, list, folder: plan.historyFolder, server: server, plan: plan, stop: stop,
            into: &summary
        ) { progress in
            switch progress {
            case .page(let subject, let bundleID, let revision, let count):
                try connection.query(
                    SQLQuery.historyPageRecord.text,
                    [
                        subject.kind.rawValue, subject.environment, subject.transactionID, bundleID, revision, count,
                        Int(runID),
                    ],
                    context: "record a history page's revision")
                if count > 0 { counts.pages += 1 }
                if subject.kind == .transactions { counts.transactions += count } else { counts.refunds += count }
            case .unknown(let subject):
                if subject.kind == .transactions { counts.unknown.append(subject.transactionID) }
            }
        }
    }
}
