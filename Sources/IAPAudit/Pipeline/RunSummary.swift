internal import Foundation

/// What one run did: stored as the run row's summary and printed at the end.
///
/// Each stage adds its own entries under its own keys (`PipelineStage.recordedEntries`), so a new stage needs no
/// field here; the properties below read the ones other code looks at.
package struct RunSummary: Sendable, Encodable {
    /// One key of the stored summary and its value.
    package struct Entry: Sendable {
        package var key: String
        package var value: any Encodable & Sendable

        package init(key: String, value: any Encodable & Sendable) {
            self.key = key
            self.value = value
        }
    }

    /// The stages' entries, in the order they ran.
    package private(set) var entries: [Entry] = []
    /// What the run prints on stdout for its stages, in pipeline order.
    package private(set) var lines: [String] = []
    /// What it tells on stderr for its stages.
    package private(set) var problems: [String] = []
    /// How the run ended: the first stage that did not succeed decides (a failed fetch comes first).
    package private(set) var outcome = StageOutcome.succeeded
    /// The report site's pages, `index.html` first: written after the run's record, so never part of it.
    package var sitePages: [String]?
    /// Seconds per stage (see `stages` for their order).
    package var stageSeconds: [String: Double] = [:]
    /// Whether this was a dry run (nothing kept).
    package var isDryRun = false

    /// The stages of a run in pipeline order, as `stageSeconds` names them. `site` is timed for the printed summary
    /// only: the stored record is finished before the site is written.
    package static let stages = RunPlan(outputDirectory: "out").stages.map(\.name) + ["site"]

    /// An empty summary.
    package init() {}

    /// Adds what one stage did.
    mutating func add<Stage: PipelineStage>(
        _ stage: Stage, _ summary: Stage.Summary, outcome stageOutcome: StageOutcome
    ) {
        entries += stage.recordedEntries(summary)
        lines += stage.summaryLines(summary, context: .inRun)
        problems += stage.problems(summary)
        if outcome == .succeeded { outcome = stageOutcome }
    }

    /// The value a stage recorded under `key`.
    package func value<Value>(_ key: String) -> Value? {
        entries.last { $0.key == key }?.value as? Value
    }

    package var fetch: FetchSummary? { value("fetch") }
    package var catalog: CatalogImport.Outcome? { value("catalog") }
    /// Why the catalog was not imported, when it was not: the run went on with the catalog in force.
    package var catalogError: String? { value("catalogError") }
    package var receipts: IngestSummary { value("receipts") ?? IngestSummary() }
    package var sales: SalesIngestSummary? { value("sales") }
    package var detection: DetectionSummary? { value("detection") }
    package var reconciliation: ReconcileSummary? { value("reconciliation") }
    /// The batch reports and the month-end pack (MonthEndStage), for the index and the closing line.
    package var reportsWritten: [String] { (value("reportsWritten") ?? []) + (value("monthEndWritten") ?? []) }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for entry in entries {
            try entry.value.encode(to: container.superEncoder(forKey: Key(stringValue: entry.key)))
        }
        try container.encode(stageSeconds, forKey: Key(stringValue: "stageSeconds"))
        try container.encode(isDryRun, forKey: Key(stringValue: "isDryRun"))
        try container.encodeIfPresent(sitePages, forKey: Key(stringValue: "sitePages"))
    }
}

extension RunSummary {
    /// What `run` prints on stdout: each stage's lines, where the reports are, and the stages' times. `demoDatabase`
    /// names the demo's database, which the other commands are told how to reach.
    package func printedLines(outputDirectory: String, demoDatabase: String? = nil) -> [String] {
        var printed = lines
        printed.append(
            isDryRun
                ? "dry run: everything read and checked, nothing kept"
                : "reports: \(reportsWritten.count) files in \(outputDirectory)/")
        if let index = sitePages?.first { printed.append("start here: \(index)") }
        if let demoDatabase, !isDryRun {
            // The other commands open iap_audit unless told otherwise: say how to reach the demo's data.
            printed.append(
                "the demo's data is in the database \(demoDatabase): add --database \(demoDatabase) to other "
                    + "commands, or export IAP_AUDIT_DATABASE=\(demoDatabase)")
        }
        printed.append("seconds: " + stageTimes)
        return printed
    }

    /// Stage durations in pipeline order, e.g. "catalog 0.0, ingest receipts 12.3, …".
    var stageTimes: String {
        let order = Self.stages
        func rank(_ stage: String) -> Int { order.firstIndex(of: stage) ?? order.count }
        return stageSeconds.sorted { (rank($0.key), $0.key) < (rank($1.key), $1.key) }
            .map { "\($0.key) \(String(format: "%.1f", $0.value))" }.joined(separator: ", ")
    }
}
