internal import Foundation

/// The flags queue: `flags.html` lists every open flag one line each, most severe first, paged; `flags/` holds the
/// same queue cut by severity and by rule, and a page per flag with its whole evidence (docs/reports.md).
///
/// Pre-rendered views rather than a script: the pages keep their policy of running nothing, work from a file
/// share or a mail attachment, and a view is one click like a filter would be.
extension ReportSite {
    /// The most flags one page of the queue lists; the rest follow on further pages.
    static let flagsPerPage = 200

    /// The folder, inside the output directory, of the flag pages and the queue's views.
    static let flagsFolder = "flags"

    /// The severities, most severe first.
    static let severities = ["high", "warning", "info"]

    /// One cut of the queue: all flags, one severity or one rule.
    struct FlagView {
        /// The file name under `flags/` without `.html`; nil for the whole queue (`flags.html`).
        var stem: String?
        var title: String
        var rows: [SiteRow]

        /// The path, from the output directory, of page `number` (1-based).
        func path(page number: Int) -> String {
            switch (stem, number) {
            case (nil, 1): "flags.html"
            case (nil, _): "\(ReportSite.flagsFolder)/all-\(number).html"
            case (let stem?, 1): "\(ReportSite.flagsFolder)/\(stem).html"
            case (let stem?, _): "\(ReportSite.flagsFolder)/\(stem)-\(number).html"
            }
        }
    }

    /// The path of flag `id`'s page, from the output directory.
    static func flagPath(_ id: String) -> String {
        "\(flagsFolder)/flag-\(SubjectPages.fileSafe(id)).html"
    }

    static func severityPath(_ severity: String) -> String {
        "\(flagsFolder)/severity-\(SubjectPages.fileSafe(severity)).html"
    }

    static func rulePath(_ rule: String) -> String {
        "\(flagsFolder)/rule-\(SubjectPages.fileSafe(rule)).html"
    }

    /// `path` (from the output directory) as a link from a page at `from` (also from the output directory).
    static func link(_ path: String, from: String) -> String {
        guard from.hasPrefix(flagsFolder + "/") else { return path }
        return path.hasPrefix(flagsFolder + "/") ? String(path.dropFirst(flagsFolder.count + 1)) : "../" + path
    }

    /// Every page of the queue, its views and its flags, with the path each is saved under.
    func flagPages(
        _ listed: [SiteRow], decisions: [String: [SiteRow]], pages: SubjectPages, files: Set<String>
    ) throws -> [(path: String, page: SitePage)] {
        // The queue and its views are the open flags; every listed flag, decided ones too, has its own page.
        let flags = listed.filter { $0["status"] == "open" }
        let definition = try ReportRunner.definition(.flags)
        let chartTable = try ReportRunner(connection: connection)
            .run(definition, parameters: window > 0 ? ["window": "\(window)"] : [:])
        let title = window > 0 ? "Open fraud flags (last \(window) days)" : "Open fraud flags"
        var views = [FlagView(stem: nil, title: title, rows: flags)]
        let severities = Self.severities.filter { severity in flags.contains { $0["severity"] == severity } }
        for severity in severities {
            views.append(
                FlagView(
                    stem: "severity-\(SubjectPages.fileSafe(severity))", title: "\(title): severity \(severity)",
                    rows: flags.filter { $0["severity"] == severity }))
        }
        let rules = Set(flags.compactMap { $0["rule"] }).sorted()
        // Counted once: every page of every view shows them.
        var perSeverity: [String: Int] = [:]
        var perRule: [String: Int] = [:]
        for row in flags {
            perSeverity[row["severity"] ?? "", default: 0] += 1
            perRule[row["rule"] ?? "", default: 0] += 1
        }
        for rule in rules {
            views.append(
                FlagView(
                    stem: "rule-\(SubjectPages.fileSafe(rule))", title: "\(title): rule \(rule)",
                    rows: flags.filter { $0["rule"] == rule }))
        }

        var result: [(path: String, page: SitePage)] = []
        for view in views {
            let pageCount = max(1, (view.rows.count + Self.flagsPerPage - 1) / Self.flagsPerPage)
            for number in 1...pageCount {
                let path = view.path(page: number)
                let rows = Array(view.rows.dropFirst((number - 1) * Self.flagsPerPage).prefix(Self.flagsPerPage))
                var page = SitePage(
                    title: view.title,
                    description: "Open flags, most severe first: one line each, its subject linked to the subject's "
                        + "page and its evidence to the flag's own page. docs/fraud-rules.md explains every rule.",
                    breadcrumbs: view.stem == nil && number == 1
                        ? [("Run summary", "index.html")]
                        : [
                            ("Run summary", Self.link("index.html", from: path)),
                            ("Open flags", Self.link("flags.html", from: path)),
                        ])
                if view.stem == nil, number == 1, let chart = definition.chart, !chartTable.rows.isEmpty {
                    page.blocks.append(.chart(chartTable, chart))
                }
                var count: [SitePage.Cell] = [
                    .text("\(view.rows.count) open flags\(view.stem == nil ? windowPhrase : "")")
                ]
                if files.contains("flags.csv") {
                    count += [
                        .text(". Every column, for a spreadsheet: "),
                        .link("flags.csv", href: Self.link("flags.csv", from: path), isCode: false),
                    ]
                }
                page.blocks.append(
                    .line(
                        count + [
                            .text(". Waiting longest, by severity: "),
                            .link("the queue by age", href: Self.link(Self.queuePath, from: path), isCode: false),
                            .text("."),
                        ]))
                page.blocks.append(
                    .line(
                        [.text("By severity: ")]
                            + separated(
                                severities.map { severity in
                                    viewLink(
                                        "\(severity) (\(perSeverity[severity] ?? 0))",
                                        to: Self.severityPath(severity), from: path)
                                })))
                page.blocks.append(
                    .line(
                        [.text("By rule: ")]
                            + separated(
                                rules.map { rule in
                                    viewLink(
                                        "\(rule) (\(perRule[rule] ?? 0))", to: Self.rulePath(rule),
                                        from: path)
                                })))
                if pageCount > 1 { page.blocks.append(pager(view, page: number, of: pageCount, from: path)) }
                page.blocks.append(flagTable(rows, pages: pages, from: path))
                if pageCount > 1 { page.blocks.append(pager(view, page: number, of: pageCount, from: path)) }
                result.append((path, page))
            }
        }
        let openViews = OpenViews(rules: Set(rules), severities: Set(severities))
        for row in listed {
            let id = row["id"] ?? ""
            result.append(
                (Self.flagPath(id), flagPage(row, decisions: decisions[id] ?? [], pages: pages, views: openViews)))
        }
        return result
    }

    /// `view`'s page links: the previous and next page, and where this one is.
    private func pager(_ view: FlagView, page number: Int, of count: Int, from path: String) -> SitePage.Block {
        var cells: [SitePage.Cell] = []
        if number > 1 {
            cells += [
                .link("‹ previous", href: Self.link(view.path(page: number - 1), from: path), isCode: false),
                .text(" · "),
            ]
        }
        let first = (number - 1) * Self.flagsPerPage + 1
        cells.append(
            .text("page \(number) of \(count) (flags \(first)–\(min(number * Self.flagsPerPage, view.rows.count)))"))
        if number < count {
            cells += [
                .text(" · "), .link("next ›", href: Self.link(view.path(page: number + 1), from: path), isCode: false),
            ]
        }
        return .line(cells)
    }

    /// A file's path as its folder and name (`fraud/planted.jsonl`): the queue's line stays short; the flag's
    /// page has the whole path in its evidence.
    static func shortPath(_ path: String) -> String {
        let parts = path.split(separator: "/")
        return parts.suffix(2).joined(separator: "/")
    }

    func viewLink(_ text: String, to target: String, from path: String) -> SitePage.Cell {
        target == path ? .text(text) : .link(text, href: Self.link(target, from: path), isCode: false)
    }

    /// `cells` with " · " between them.
    func separated(_ cells: [SitePage.Cell]) -> [SitePage.Cell] {
        var result: [SitePage.Cell] = []
        for (index, cell) in cells.enumerated() {
            if index > 0 { result.append(.text(" · ")) }
            result.append(cell)
        }
        return result
    }

    /// A flagged subject as it reads: a receipt by its file and line, the others by their kind and id.
    func subjectCell(
        _ subject: Subject, row: SiteRow, pages: SubjectPages, from path: String
    ) -> SitePage.Cell {
        let text =
            subject.kind == "receipt" && row["receipt_file"] != nil && row["receipt_line"] != nil
            ? "receipt \(Self.shortPath(row["receipt_file"] ?? "")):\(row["receipt_line"] ?? "")"
            : "\(SubjectPages.noun(subject.kind)) \(subject.key)"
        guard pages.hasPage(subject) else { return .code(text) }
        return .link(text, href: Self.link(pages.href(subject, from: .root), from: path), isCode: true)
    }
}
