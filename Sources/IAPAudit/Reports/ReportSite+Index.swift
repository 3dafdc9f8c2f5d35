internal import Foundation
internal import Postgres

extension ReportSite {
    /// `index.html`: the run's record in `pipeline_run` (inputs, quarantine by reason, flags by rule,
    /// reconciliation by status, stage times), links to every report written, and the runs before it.
    func indexPage(runID: Int64?, reportFiles: [String], flags: [SiteRow]) throws -> SitePage {
        let flagCount = flags.filter { $0["status"] == "open" }.count
        let run = try connection.query(
            SQLQuery.siteRun.text, [runID], context: "read the run for the site")
        var page = SitePage(
            title: "IAP audit: run summary",
            description: "What the run did and where to start: the open flags, the reconciliation, the quarantine. "
                + "docs/ explains every rule, status and reason code.")
        let files = Set(reportFiles.map { ($0 as NSString).lastPathComponent })
        func report(_ name: String, _ text: String) -> SitePage.Cell {
            if files.contains("\(name).html") { return .link(text, href: "\(name).html", isCode: false) }
            if let file = files.sorted().first(where: { $0.hasPrefix("\(name).") }) {
                return .link(text, href: file, isCode: false)
            }
            return .text(text)
        }
        page.blocks.append(
            .line([
                .text("Start with "), .link("the open flags", href: "flags.html", isCode: false), .text(" ("),
                .number("\(flagCount)"), .text(window > 0 ? " in the last \(window) days), " : "), "),
                .link("the queue by severity and age", href: Self.queuePath, isCode: false), .text(", "),
                report("reconciliation-summary", "the reconciliation summary"),
                .text(" and "), report("quarantine", "the quarantine"), .text("."),
            ]))
        guard let row = try run.allRows.first.map({ try SiteRow($0, columns: SiteRow.Columns.run) }) else {
            page.blocks.append(.note("No finished run is recorded in this database yet: run iap-audit run first."))
            page.blocks += reportLinks(files)
            return page
        }
        page.blocks.append(
            .facts([
                (
                    "Triage",
                    .cells([
                        .link("\(flagCount) open", href: Self.queuePath, isCode: false),
                        .text(
                            "· \(flags.filter { $0["status"] == "confirmed" }.count) confirmed · "
                                + "\(flags.filter { $0["status"] == "dismissed" }.count) dismissed by analysts "
                                + "(iap-audit flags)\(windowPhrase.isEmpty ? "" : ",\(windowPhrase)")"),
                    ])
                )
            ]))
        let id = row["id"] ?? "?"
        page.title = "IAP audit: run \(id)"
        page.blocks.append(.heading("Run \(id)"))
        page.blocks.append(
            .facts([
                ("Command", .code(row["command"] ?? "")), ("Outcome", Self.text(row["outcome"])),
                ("Exit code", Self.text(row["exit_code"])),
                ("Started (UTC)", Self.text(row["started_utc"])), ("Finished (UTC)", Self.text(row["finished_utc"])),
                ("Version", Self.text(row["version"])),
            ]))
        let summary = EvidenceValue.parse(row["summary"] ?? "{}") ?? .object([])

        page.blocks.append(.heading("Inputs"))
        let ingestColumns: [(String, String)] = [
            ("filesSeen", "Files seen"), ("filesIngested", "Loaded"), ("filesAlreadyIngested", "Already loaded"),
            ("filesFailed", "Failed"), ("records", "Records"), ("stored", "Stored"),
            ("alreadyStored", "Already stored"), ("quarantined", "Quarantined"),
        ]
        var inputRows: [[SitePage.Cell]] = []
        for (label, ingest) in [("Receipts", summary["receipts"]), ("Sales reports", summary["sales"]?["ingest"])] {
            guard let ingest else { continue }
            inputRows.append([.text(label)] + ingestColumns.map { Self.number(ingest[$0.0]?.text) })
        }
        if let catalog = summary["catalog"] {
            page.blocks.append(.facts([("Catalog", .evidence(catalog))]))
        }
        page.blocks.append(.table(columns: ["Input"] + ingestColumns.map(\.1), rows: inputRows))

        page.blocks.append(.heading("Quarantine by reason"))
        page.blocks.append(
            .line([
                .text(
                    "Records that could not be read, by reason code (docs/inputs.md): quarantined by this run, and "
                        + "all stored in the quarantine; every record with its file and line: "),
                report("quarantine", "quarantine"), .text("."),
            ]))
        page.blocks.append(
            .table(
                columns: ["Reason", "This run", "All stored"],
                rows: standing(
                    EvidenceValue.parse(row["quarantine_by_reason"] ?? "{}"),
                    EvidenceValue.parse(row["all_quarantine_by_reason"] ?? "{}"))))

        page.blocks.append(.heading("Flags by rule"))
        var hits: [String: EvidenceValue] = [:]
        if case .list(let rules)? = summary["detection"]?["rules"] {
            for rule in rules { if let name = rule["rule"]?.text { hits[name] = rule } }
        }
        let open = EvidenceValue.parse(row["open_flags_by_rule"] ?? "{}") ?? .object([])
        var ruleNames = Set(hits.keys)
        if case .object(let members) = open { ruleNames.formUnion(members.map(\.name)) }
        page.blocks.append(
            .line([
                .text(
                    "Open flags now, and what this run's detection found; every flag with its subject and evidence: "),
                .link("open flags", href: "flags.html", isCode: false), .text("."),
            ]))
        page.blocks.append(
            .table(
                columns: ["Rule", "Open flags", "Hits this run", "New", "Updated"],
                rows: ruleNames.sorted().map { name in
                    [
                        .name(name), Self.number(open[name]?.text ?? "0"), Self.number(hits[name]?["hits"]?.text),
                        Self.number(hits[name]?["created"]?.text), Self.number(hits[name]?["updated"]?.text),
                    ]
                }))

        page.blocks.append(.heading("Reconciliation by status"))
        page.blocks.append(
            .line([
                .text(
                    "Lines of recorded against reported units (docs/reconciliation.md): the days this run reconciled, "
                        + "and all lines stored; per period and app: "),
                report("reconciliation-summary", "reconciliation summary"), .text("; every line: "),
                report("reconciliation", "reconciliation"), .text("."),
            ]))
        page.blocks.append(
            .table(
                columns: ["Status", "This run", "All lines"],
                rows: standing(
                    summary["reconciliation"]?["linesByStatus"], EvidenceValue.parse(row["all_lines_by_status"] ?? "{}")
                )))

        page.blocks.append(.heading("Stage times"))
        let order = RunSummary.stages
        var stages: [(String, String)] = []
        if case .object(let members)? = summary["stageSeconds"] {
            stages = members.map { ($0.name, $0.value.text ?? "") }
            stages.sort { (order.firstIndex(of: $0.0) ?? order.count) < (order.firstIndex(of: $1.0) ?? order.count) }
        }
        page.blocks.append(
            .table(
                columns: ["Stage", "Seconds"],
                rows: stages.map { [.text($0.0), .number(Self.oneDecimal($0.1))] }))

        page.blocks += reportLinks(files)

        page.blocks.append(.heading("Runs before this one"))
        let runs = try connection.query(
            SQLQuery.siteRuns.text, [Int64(id)], context: "read the earlier runs")
        page.blocks.append(
            .table(
                columns: [
                    "Run", "Command", "Outcome", "Exit code", "Started (UTC)", "Seconds", "Receipt records",
                    "Quarantined",
                ],
                rows: try runs.allRows.map { try SiteRow($0, columns: SiteRow.Columns.earlierRun) }.map { row in
                    [
                        Self.number(row["id"]), .code(row["command"] ?? ""), Self.text(row["outcome"]),
                        Self.number(row["exit_code"]),
                        Self.text(row["started_utc"]), Self.number(row["seconds"]), Self.number(row["receipt_records"]),
                        Self.number(row["quarantined"]),
                    ]
                }))
        return page
    }

    /// The reports section: each report with a link to every file written for it.
    private func reportLinks(_ files: Set<String>) -> [SitePage.Block] {
        let definitions = (try? ReportRunner.definitions()) ?? []
        var rows: [[SitePage.Cell]] = []
        for definition in definitions.sorted(by: { $0.name < $1.name }) {
            let written = files.filter { ($0 as NSString).deletingPathExtension == definition.name }.sorted {
                ($0.hasSuffix(".html") ? 0 : 1, $0) < ($1.hasSuffix(".html") ? 0 : 1, $1)
            }
            guard !written.isEmpty else { continue }
            rows.append([
                .text(definition.title),
                .cells(written.map { .link(($0 as NSString).pathExtension, href: $0, isCode: false) }),
                .text(definition.description),
            ])
        }
        return [.heading("Reports"), .table(columns: ["Report", "Files", "What it answers"], rows: rows)]
    }

    /// Two JSON objects of counts (this run's, and all stored) as rows of a name and both counts, largest total first;
    /// a name this run did not see counts 0 for it.
    private func standing(_ run: EvidenceValue?, _ all: EvidenceValue?) -> [[SitePage.Cell]] {
        var totals: [String: String] = [:]
        if case .object(let members)? = all { for member in members { totals[member.name] = member.value.text } }
        var current: [String: String] = [:]
        if case .object(let members)? = run { for member in members { current[member.name] = member.value.text } }
        let names = Set(totals.keys).union(current.keys)
        return names.sorted { (Int(totals[$0] ?? "") ?? 0, $1) > (Int(totals[$1] ?? "") ?? 0, $0) }.map { name in
            [.name(name), .number(current[name] ?? "0"), .number(totals[name] ?? current[name] ?? "0")]
        }
    }

    fileprivate static func oneDecimal(_ text: String) -> String {
        Double(text).map { String(format: "%.1f", $0) } ?? text
    }
}
