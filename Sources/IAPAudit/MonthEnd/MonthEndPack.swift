internal import Foundation
internal import Postgres
internal import Reports

/// The month-end pack `run` writes for the latest closed fiscal month (docs/reconciliation.md, "The month-end pack"):
///
/// - HTML: one page, `month-end-bridge.html`: the bridge drawn as a waterfall, its table with each figure linked to
///   the page of the rows behind it (`month-end/MONTH-STEP_ORDER-STEP.html`, report `month-end-rows`), and below it
///   the table per region and currency (report `month-end`);
/// - CSV (and the other formats): `month-end-bridge`, `month-end`, and `month-end-rows` with every figure's rows,
///   keyed by `step_order` and `step` as in the bridge (a spreadsheet filters, it follows no link).
struct MonthEndPack {
    /// The reports the pack writes; the batch reports leave them to it.
    static let reports: Set<String> = [
        ReportFile.monthEndBridge.name, ReportFile.monthEnd.name, ReportFile.monthEndRows.name,
    ]

    let connection: Connection
    let directory: String
    let formats: [ReportFormat]
    /// Links shown above each page (back to the run's index).
    var navigation: [ReportTable.Link] = []

    /// Writes the pack; returns the report files written (the bridge's page first), which the run's index lists, and
    /// the pages of rows, which only the bridge links to.
    func write() throws -> (reports: [String], pages: [String]) {
        // Straight after a first large load these tables' statistics lag (autovacuum comes later), and the pack
        // planned on them took 8.8 s instead of 1.7 s at a 1M-entry history: 76 ms of ANALYZE (docs/decisions.md).
        try connection.analyzeStaleTables(Self.tablesRead)
        // One month is few rows: compiling the queries' many expressions (JIT) cost seconds, their running a fraction.
        return try connection.plannedForFewRows { try writePack() }
    }

    /// The tables the month-end views, functions and reports read.
    private static let tablesRead = [
        "bank_deposit", "input_file", "payment_region", "payment_summary", "purchase", "purchase_state",
        "reconcile_recorded_day", "reconciliation_line", "sales_report", "sales_report_period", "sales_report_row",
    ]

    private func writePack() throws -> (reports: [String], pages: [String]) {
        let runner = ReportRunner(connection: connection)
        let bridgeDefinition = try ReportRunner.definition(.monthEndBridge)
        let monthDefinition = try ReportRunner.definition(.monthEnd)
        let rowsDefinition = try ReportRunner.definition(.monthEndRows)
        var bridge = try runner.run(bridgeDefinition, parameters: [:])
        bridge.navigation = navigation
        var month = try runner.run(monthDefinition, parameters: [:])
        month.navigation = navigation
        // Once, of the bridge's month: the CSV of rows and the HTML pages of each figure's rows.
        let rows = try runner.run(
            rowsDefinition, parameters: ReportSite.sharedParameters(of: rowsDefinition, from: bridge))
        var written: [String] = []
        var pages: [String] = []
        for format in formats {
            guard format == .html else {
                written.append(try ReportRunner.write(bridge, of: bridgeDefinition, as: format, to: directory))
                written.append(try ReportRunner.write(month, of: monthDefinition, as: format, to: directory))
                written.append(try ReportRunner.write(rows, of: rowsDefinition, as: format, to: directory))
                continue
            }
            let linked = try ReportSite.writeLinkedPages(
                for: bridge, of: bridgeDefinition, ran: [rowsDefinition.name: rows], connection: connection,
                directory: directory)
            var page = linked.table
            page.sections = [month]
            written.insert(try ReportRunner.write(page, of: bridgeDefinition, as: .html, to: directory), at: 0)
            pages += linked.written
        }
        return (written, pages)
    }
}
