internal import Foundation
package import Postgres
package import Reports

/// Runs the reports built in from `reports/` and writes them in the formats users asked for.
package struct ReportRunner {
    private let connection: Connection

    /// A runner reading through `connection`.
    package init(connection: Connection) {
        self.connection = connection
    }

    /// Every shipped report, by name.
    package static func definitions() throws(IAPAuditError) -> [ReportDefinition] {
        try shippedDefinitions.get()
    }

    /// The shipped reports, parsed once: the report site asks for one on every subject page.
    private static let shippedDefinitions: Result<[ReportDefinition], IAPAuditError> = {
        var definitions: [ReportDefinition] = []
        for file in ReportFile.all {
            do {
                definitions.append(try ReportDefinition.parse(name: file.name, text: file.text))
            } catch {
                return .failure(.internalInconsistency("built-in report \(file.name).sql: \(error)"))
            }
        }
        return .success(definitions)
    }()

    /// The shipped report `file`.
    static func definition(_ file: ReportFile) throws(IAPAuditError) -> ReportDefinition {
        try definition(named: file.name)
    }

    /// The shipped report called `name` (as a user typed it).
    package static func definition(named name: String) throws(IAPAuditError) -> ReportDefinition {
        let all = try definitions()
        guard let definition = all.first(where: { $0.name == name }) else {
            throw IAPAuditError.usage(
                "no report named '\(name)'; reports: \(all.map(\.name).sorted().joined(separator: ", "))")
        }
        return definition
    }

    /// Runs a report with `--param` values and returns its table.
    package func run(_ definition: ReportDefinition, parameters: [String: String]) throws -> ReportTable {
        let bound: [String?]
        do {
            bound = try definition.bind(parameters)
        } catch {
            throw IAPAuditError.usage("\(error)")
        }
        let result = try connection.query(definition.sql, bound, context: "report \(definition.name)")
        let columns = (0..<result.columnCount).map {
            ReportColumn(name: result.columnName($0), kind: ColumnKind(postgresTypeOID: result.columnTypeOID($0)))
        }
        return ReportTable(
            title: definition.title, description: definition.description, columns: columns, rows: result.rows,
            generatedAt: Date().formatted(.iso8601),
            parameters: zip(definition.parameters, bound).map {
                ReportTable.Parameter(name: $0.name, value: $1, isDefault: parameters[$0.name] == nil)
            })
    }

    /// Renders `table` as `format` into `directory/NAME.ext` (written atomically); returns the path.
    @discardableResult
    package static func write(
        _ table: ReportTable, of definition: ReportDefinition, as format: ReportFormat, to directory: String
    ) throws -> String {
        try OutputDirectory.prepare(directory)
        let path = (directory as NSString).appendingPathComponent("\(definition.name).\(format.fileExtension)")
        return try write(ReportRenderer.render(table, as: format, chart: definition.chart), to: path)
    }

    /// Writes a rendered report at `path`, atomically, into a folder that exists; returns the path. A failure names
    /// the path (73, or 74 when the disk is full or failing).
    static func write(_ bytes: [UInt8], to path: String) throws(IAPAuditError) -> String {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw OutputDirectory.failure(error, "cannot write the report \(path)")
        }
        return path
    }
}

/// A report file of `reports/`, built into the binary: `ReportFile.flags` is `flags.sql` (the build plugin writes one
/// constant per file, so a renamed or deleted report is a compile error where it is used).
struct ReportFile: Sendable, Hashable {
    /// The file name without `.sql`: the report's name.
    let name: String
    /// The file's text.
    let text: String
}
