/// What one `iap-audit run` does: each stage with no input is skipped.
public struct RunPlan: Sendable {
    /// A JSON catalog to import first, if any.
    public var catalogPath: String?
    /// Receipt files or directories.
    public var receiptPaths: [String] = []
    /// Sales and financial report files or directories.
    public var salesPaths: [String] = []
    /// Fraud rule thresholds and windows.
    public var detection = DetectionSettings()
    /// The zone of the reports' days, for reconciliation.
    public var timeZone = ReconcileOptions.defaultTimeZone
    /// Where reports are written.
    public var outputDirectory: String
    /// Reports to write, by name; every shipped report when empty.
    public var reports: [String] = []
    /// Formats each report is written in.
    public var reportFormats: [ReportFormat] = [.csv, .html]
    /// Read and validate everything, keep nothing: the whole run is rolled back and no report is written.
    public var isDryRun = false

    /// A plan writing reports to `outputDirectory`.
    public init(outputDirectory: String) {
        self.outputDirectory = outputDirectory
    }
}

/// What one run did: stored as the run row's summary and printed at the end.
public struct RunSummary: Sendable, Codable, Equatable {
    public var catalog: CatalogImport.Outcome?
    public var receipts = IngestSummary()
    public var sales: SalesIngestSummary?
    public var detection: DetectionSummary?
    public var reconciliation: ReconcileSummary?
    public var reportsWritten: [String] = []
    /// Seconds per stage, in order.
    public var stageSeconds: [String: Double] = [:]
    /// Whether this was a dry run (nothing kept).
    public var isDryRun = false

    /// An empty summary.
    public init() {}

    /// Records quarantined by every ingest stage of the run (what `--strict` fails on).
    public var quarantined: Int { receipts.quarantined + (sales?.ingest.quarantined ?? 0) }
    /// Why the catalog was not imported, when it was not: the run went on with the catalog in force.
    public var catalogError: String?
    /// Files that could not be read or stored by any ingest stage of the run, the catalog among them (the run exits
    /// 65 for them).
    public var filesFailed: Int {
        receipts.filesFailed + (sales?.ingest.filesFailed ?? 0) + (catalogError == nil ? 0 : 1)
    }
}
