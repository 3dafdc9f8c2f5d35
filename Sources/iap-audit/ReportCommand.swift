import ArgumentParser
import Foundation
package import IAPAudit

/// `iap-audit report NAME`.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render a report from reports/ (csv, json, md, html).",
        discussion: "With --out DIR the report is written to DIR/NAME.EXT; otherwise it goes to stdout, except an "
            + "HTML report on a terminal, which is written to out/NAME.html (the path is printed). --all writes "
            + "every batch report and the report site (index.html, see docs/reports.md) of the latest run into "
            + "--out (default out). --list shows every report and its parameters.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Report name, e.g. ingest-history, quarantine.")
    var name: String?

    @Option(help: "Output format: csv, json, md or html (default csv; with --all, csv and html).")
    var format: ReportFormat?

    @Option(help: "Write into this directory instead of stdout.")
    var out: String?

    @Option(name: .customLong("param"), help: "A report parameter as NAME=VALUE (repeatable).")
    var parameters: [String] = []

    @Flag(help: "List the reports and their parameters.")
    var list = false

    @Flag(help: "Write every batch report and the report site (index.html) of the latest run.")
    var all = false

    func validate() throws {
        if all && (name != nil || list || !parameters.isEmpty) {
            throw ValidationError("--all writes every report without parameters; drop the name, --param and --list")
        }
        if !list && !all && name == nil { throw ValidationError("name a report, or use --all or --list") }
        var named: Set<Substring> = []
        for parameter in parameters {
            guard let equals = parameter.firstIndex(of: "=") else { throw ValidationError("--param takes NAME=VALUE") }
            // Two values for one name: which one was meant cannot be guessed, and keeping the last hides the other.
            guard named.insert(parameter[..<equals]).inserted else {
                throw ValidationError("--param \(parameter[..<equals]) is given more than once; give it once")
            }
        }
    }

    func run() throws {
        try runReportingFailure {
            if list {
                for definition in try ReportRunner.definitions().sorted(by: { $0.name < $1.name }) {
                    let parameters = definition.parameters.map { "\($0.name) (\($0.kind))" }.joined(separator: ", ")
                    print("\(definition.name): \(definition.title)" + (parameters.isEmpty ? "" : " [\(parameters)]"))
                }
                return 0
            }
            if all {
                let workspace = try global.openWorkspace(schema: .requireCurrent)
                let written = try workspace.writeAllReports(
                    to: out ?? "out", formats: format.map { [$0] } ?? [.csv, .html])
                print("reports: \(written.count) files in \(out ?? "out")/")
                if let index = written.first { print("start here: \(index)") }
                return 0
            }
            let definition = try ReportRunner.definition(named: name ?? "")
            if let out { try OutputDirectory.prepare(out) }
            var values: [String: String] = [:]
            for parameter in parameters {
                let parts = parameter.split(separator: "=", maxSplits: 1)
                values[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            let workspace = try global.openWorkspace(schema: .requireCurrent)
            let format = format ?? .csv
            if definition.name == "flags" && format == .html && values.isEmpty
                && (out != nil || isatty(STDOUT_FILENO) == 1)
            {
                // One flags page, one renderer: the site's queue (with its flag and subject pages and the index they
                // lead back to), not a second page of its own.
                let directory = out ?? "out"
                let written = try workspace.writeSite(to: directory, runID: nil, reportFiles: [])
                let flags =
                    written.first { $0.hasSuffix("/flags.html") }
                    ?? (directory as NSString)
                    .appendingPathComponent("flags.html")
                print(out != nil ? flags : "wrote \(flags); open it in a browser (--out DIR chooses the folder)")
                return 0
            }
            let table = try workspace.report(definition, parameters: values)
            if let out {
                print(try ReportRunner.write(table, of: definition, as: format, to: out))
            } else if format == .html && isatty(STDOUT_FILENO) == 1 {
                // A page of markup is no use on a terminal: write it where a browser can open it, and say where.
                let path = try ReportRunner.write(table, of: definition, as: format, to: "out")
                print("wrote \(path); open it in a browser (--out DIR chooses the folder)")
            } else {
                FileHandle.standardOutput.write(Data(ReportRenderer.render(table, as: format, chart: definition.chart)))
            }
            return 0
        }
    }
}

extension ReportFormat: ExpressibleByArgument {}
