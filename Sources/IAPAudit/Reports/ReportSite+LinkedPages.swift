internal import Foundation
internal import Postgres
internal import Reports

extension ReportSite {
    /// The pages a report's `link:` columns lead to (`ReportLink`), written beside the report: for each link, its
    /// report is run once with the parameters the linking table shares (a column of the same name holding one value,
    /// such as the pack's `month`), its rows are grouped by the link's page pattern, and each page a cell of `table`
    /// names is written; the cell links to it. Pages a cell does not name, and pages an earlier run left in the
    /// pattern's folder, are not kept. `ran` holds linked reports the caller already ran, by name, with those
    /// parameters. Returns the table with its `rowLinks` and the paths written.
    static func writeLinkedPages(
        for table: ReportTable, of definition: ReportDefinition, ran: [String: ReportTable] = [:],
        connection: Connection, directory: String
    ) throws -> (table: ReportTable, written: [String]) {
        var linked = table
        var written: [String] = []
        for link in definition.links {
            let target = try ReportRunner.definition(named: link.report)
            let rows =
                try ran[link.report]
                ?? ReportRunner(connection: connection).run(
                    target, parameters: sharedParameters(of: target, from: table))
            var pages: [String: [[String?]]] = [:]
            for row in rows.rows {
                guard let page = link.page(of: row, columns: rows.columns) else { continue }
                pages[page, default: []].append(row)
            }
            var kept = Set<String>()
            for (index, row) in table.rows.enumerated() {
                guard let page = link.page(of: row, columns: table.columns), let pageRows = pages[page] else {
                    continue
                }
                linked.rowLinks[link.column, default: [:]][index] = page
                guard kept.insert(page).inserted else { continue }
                var detail = rows
                detail.rows = pageRows
                detail.title = "\(target.title): " + figureName(row, link: link, columns: table.columns)
                detail.description =
                    "The rows behind \(link.column) \(cellText(row, link.column, table.columns)) of \(table.title). "
                    + target.description
                detail.navigation =
                    table.navigation.map { ReportTable.Link(text: $0.text, href: link.pathToRoot + $0.href) }
                    + [ReportTable.Link(text: table.title, href: link.pathToRoot + "\(definition.name).html")]
                written.append(try saveReport(detail, at: page, in: directory))
            }
            try removeStale(pagesOf: link, keeping: kept, in: directory)
        }
        return (linked, written)
    }

    /// The linked report's parameters that the linking table answers: a column of the parameter's name whose rows all
    /// hold one value (the month a pack is of); the others keep their defaults.
    static func sharedParameters(of target: ReportDefinition, from table: ReportTable) -> [String: String] {
        var parameters: [String: String] = [:]
        for parameter in target.parameters {
            guard let index = table.columns.firstIndex(where: { $0.name == parameter.name }) else { continue }
            let values = Set(table.rows.compactMap { index < $0.count ? $0[index] : nil })
            if values.count == 1, let value = values.first { parameters[parameter.name] = value }
        }
        return parameters
    }

    /// The figure a page is of, for its title: the row's values of the pattern's columns that are not bare numbers
    /// (`recorded, 2026-09`), or all of them when every one is a number.
    private static func figureName(_ row: [String?], link: ReportLink, columns: [ReportColumn]) -> String {
        let values = link.patternColumns.map { cellText(row, $0, columns) }
        let words = values.filter { !$0.allSatisfy(\.isNumber) }
        return (words.isEmpty ? values : words.reversed()).joined(separator: ", ")
    }

    private static func cellText(_ row: [String?], _ column: String, _ columns: [ReportColumn]) -> String {
        columns.firstIndex { $0.name == column }.flatMap { $0 < row.count ? row[$0] : nil } ?? ""
    }

    /// Writes `table` as HTML at `relativePath` (atomically, its folders made first); returns the path.
    private static func saveReport(_ table: ReportTable, at relativePath: String, in directory: String) throws -> String
    {
        let path = (directory as NSString).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return try ReportRunner.write(ReportRenderer.render(table, as: .html, chart: nil), to: path)
    }

    /// Removes the pages in the pattern's own folder (`month-end/` of `month-end/{month}-{step}.html`) this run did
    /// not write: a month no longer the pack's, a figure gone. A pattern without a folder of its own removes nothing.
    private static func removeStale(pagesOf link: ReportLink, keeping kept: Set<String>, in directory: String) throws {
        guard case .text(let first)? = link.pattern.first, let slash = first.firstIndex(of: "/") else { return }
        let folder = String(first[..<slash])
        let path = (directory as NSString).appendingPathComponent(folder)
        guard FileManager.default.fileExists(atPath: path) else { return }
        let keptNames = Set(kept.map { ($0 as NSString).lastPathComponent })
        for name in try FileManager.default.contentsOfDirectory(atPath: path)
        where name.hasSuffix(".html") && !keptNames.contains(name) {
            try FileManager.default.removeItem(atPath: (path as NSString).appendingPathComponent(name))
        }
    }
}
