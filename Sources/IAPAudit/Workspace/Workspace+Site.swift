internal import Foundation
internal import Logging

extension Workspace {
    /// Writes the report site (`index.html`, `flags.html`, `subjects/`) into `directory` for run `runID` (nil: the
    /// latest recorded `run`), linking to `reportFiles`, with the flags of the last `window` days (0: all); returns
    /// the paths written, `index.html` first.
    package func writeSite(
        to directory: String, runID: Int64?, reportFiles: [String], window: Int = 0
    ) throws
        -> [String]
    {
        var site = ReportSite(connection: connection, directory: directory)
        site.window = window
        // Small statements (one batch of pages each) that the planner would plan for whole tables.
        let written = try connection.plannedForFewRows { try site.write(runID: runID, reportFiles: reportFiles) }
        logger.info(
            "wrote the report site", metadata: ["index": "\(written.first ?? "")", "pages": "\(written.count)"])
        return written
    }

    /// `iap-audit report --all`: every batch report in each of `formats` and the site of the latest run, into
    /// `directory`; returns the paths written, `index.html` first.
    package func writeAllReports(to directory: String, formats: [ReportFormat]) throws -> [String] {
        try OutputDirectory.prepare(directory)
        var plan = RunPlan(outputDirectory: directory)
        plan.reportFormats = formats
        // Asked for, not the batch: all history.
        plan.reportWindow = 0
        var pack = MonthEndPack(connection: connection, directory: directory, formats: formats)
        pack.navigation = [.init(text: "Run summary", href: "index.html")]
        // The month-end pack, as run's stage writes it, and the batch reports.
        let reports = try pack.write().reports + writeReports(plan)
        return try writeSite(to: directory, runID: nil, reportFiles: reports) + reports
    }
}
