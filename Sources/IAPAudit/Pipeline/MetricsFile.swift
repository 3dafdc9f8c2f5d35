internal import AppleAPI
package import Foundation

/// Writes a run's figures in Prometheus text format for node_exporter's textfile collector.
///
/// Written to a temporary file in the same directory and renamed into place, so the collector never reads half a
/// file.
package enum MetricsFile {
    /// The metrics text for a finished run.
    package static func text(summary: RunSummary, exitCode: Int32, finishedAt: Date) -> String {
        var lines: [String] = []
        func metric(_ name: String, _ help: String, _ type: String, _ samples: [(labels: String, value: String)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
            for sample in samples {
                lines.append(name + (sample.labels.isEmpty ? "" : "{\(sample.labels)}") + " " + sample.value)
            }
        }
        let receipts = summary.receipts
        metric(
            "iap_audit_last_run_exit_code", "Exit code of the last iap-audit run (0: success).", "gauge",
            [("", "\(exitCode)")])
        metric(
            "iap_audit_last_run_timestamp_seconds", "When the last iap-audit run finished (Unix time).", "gauge",
            [("", String(format: "%.0f", finishedAt.timeIntervalSince1970))])
        metric(
            "iap_audit_stage_duration_seconds", "Seconds each stage of the last run took.", "gauge",
            summary.stageSeconds.sorted { $0.key < $1.key }.map {
                ("stage=\"\(escape($0.key))\"", String(format: "%.3f", $0.value))
            })
        metric(
            "iap_audit_files", "Input files seen by the last run, by state.", "gauge",
            [
                ("kind=\"receipts\",state=\"ingested\"", "\(receipts.filesIngested)"),
                ("kind=\"receipts\",state=\"already_ingested\"", "\(receipts.filesAlreadyIngested)"),
                ("kind=\"receipts\",state=\"ignored\"", "\(receipts.filesIgnored)"),
            ])
        metric(
            "iap_audit_records", "Records read by the last run, by outcome.", "gauge",
            [
                ("kind=\"receipts\",state=\"stored\"", "\(receipts.stored)"),
                ("kind=\"receipts\",state=\"quarantined\"", "\(receipts.quarantined)"),
            ])
        metric(
            "iap_audit_quarantined_records", "Records quarantined by the last run, by reason.", "gauge",
            receipts.quarantinedByReason.sorted { $0.key < $1.key }.map {
                ("kind=\"receipts\",reason=\"\(escape($0.key))\"", "\($0.value)")
            })
        metric(
            "iap_audit_transaction_entries", "Transaction entries read by the last run.", "gauge",
            [("", "\(receipts.transactionEntries)")])
        if let fetch = summary.fetch {
            let total = fetch.total
            metric(
                "iap_audit_fetch_reports", "Apple reports the last run's fetch looked at, by outcome.", "gauge",
                [
                    ("state=\"fetched\"", "\(total.fetched)"), ("state=\"held\"", "\(total.held)"),
                    ("state=\"not_published\"", "\(total.notPublished)"), ("state=\"no_sales\"", "\(total.noSales)"),
                    ("state=\"not_asked\"", "\(total.pending)"),
                ])
            let requests = fetch.requestStatistics
            metric(
                "iap_audit_fetch_requests", "Requests the last run sent to Apple, by kind.", "gauge",
                [
                    ("kind=\"all\"", "\(requests.requests)"), ("kind=\"retry\"", "\(requests.retries)"),
                    ("kind=\"rate_limited\"", "\(requests.rateLimited)"),
                ])
            metric(
                "iap_audit_fetch_bytes", "Bytes the last run received from Apple.", "gauge",
                [("", "\(requests.bytes)")])
            metric(
                "iap_audit_fetch_failed", "1 when the last run's fetch failed (its exit code says how).", "gauge",
                [("", fetch.failure == nil ? "0" : "1")])
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `text` to `path` atomically.
    package static func write(_ text: String, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).\(getpid())"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw IAPAuditError.configuration("cannot write the metrics file \(path): \(reason)")
        }
    }

    /// Label values escape backslash, quote and newline.
    private static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
