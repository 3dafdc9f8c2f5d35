/// What one `iap-audit run` does: each stage with no input is skipped.
package struct RunPlan: Sendable {
    /// A JSON catalog to import first, if any.
    package var catalogPath: String?
    /// Receipt files or directories.
    package var receiptPaths: [String] = []
    /// Sales and financial report files or directories.
    package var salesPaths: [String] = []
    /// Root certificates trusted for this run's signed data beside the settings' (the demo trusts the root its
    /// examples were signed with).
    package var trustedRootPaths: [String] = []
    /// Fraud rule thresholds and windows.
    package var detection = DetectionSettings()
    /// The zone of the reports' days, for reconciliation.
    package var timeZone = ReconcileOptions.defaultTimeZone
    /// Where reports are written.
    package var outputDirectory: String
    /// Reports to write, by name; every shipped report when empty.
    package var reports: [String] = []
    /// Formats each report is written in.
    package var reportFormats: [ReportFormat] = [.csv, .html]
    /// The batch reports cover the last this many days of history (each by its own date); 0 is all history.
    package var reportWindow = RunPlan.defaultReportWindow
    /// Five weeks: a month's reports and the days either side, whatever the history's size.
    package static let defaultReportWindow = 35
    /// Read and validate everything, keep nothing: the whole run is rolled back and no report is written.
    package var isDryRun = false
    /// Fetch from Apple first (an `[apple.*]` section is configured and `--no-fetch` was not given).
    package var fetch: FetchPlan?

    /// A plan writing reports to `outputDirectory`.
    package init(outputDirectory: String) {
        self.outputDirectory = outputDirectory
    }
}

/// What one run did: stored as the run row's summary and printed at the end.
package struct RunSummary: Sendable, Codable, Equatable {
    package var fetch: FetchSummary?
    package var catalog: CatalogImport.Outcome?
    package var receipts = IngestSummary()
    package var sales: SalesIngestSummary?
    package var detection: DetectionSummary?
    package var reconciliation: ReconcileSummary?
    package var reportsWritten: [String] = []
    /// The report site's pages, `index.html` first: written after the run's record, so never part of it.
    package var sitePages: [String]?
    /// Seconds per stage (see `stages` for their order).
    package var stageSeconds: [String: Double] = [:]
    /// The stages of a run in pipeline order, as `stageSeconds` names them. `site` is timed for the printed summary
    /// only: the stored record is finished before the site is written.
    package static let stages = [
        "fetch", "catalog", "ingest receipts", "ingest sales", "detect", "reconcile", "reports", "site",
    ]
    /// Whether this was a dry run (nothing kept).
    package var isDryRun = false

    /// An empty summary.
    package init() {}

    /// Records quarantined by every ingest stage of the run (what `--strict` fails on).
    package var quarantined: Int { receipts.quarantined + (sales?.ingest.quarantined ?? 0) }
    /// Why the catalog was not imported, when it was not: the run went on with the catalog in force.
    package var catalogError: String?
    /// Files that could not be read or stored by any ingest stage of the run, the catalog among them (the run exits
    /// 65 for them).
    package var filesFailed: Int {
        receipts.filesFailed + (sales?.ingest.filesFailed ?? 0) + (catalogError == nil ? 0 : 1)
    }
}
