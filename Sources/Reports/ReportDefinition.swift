/// A report read from `reports/NAME.sql`: its header (title, description, parameters, chart, sensitivity) and SQL.
///
/// The header is the run of `--` comment lines at the top of the file, read by `SQLHeader` like every SQL file's:
///
/// ```
/// -- title: Quarantine
/// -- description: Every record that could not be read, with file, line and reason.
/// -- param: since date = 1970-01-01 -- only records loaded on or after this day
/// -- chart: bar x=day y=records
/// -- link: records -> quarantine-rows quarantine/{day}.html
/// -- sensitive: false
/// ```
///
/// A header line indented by two or more spaces after `--` continues the title or description. The first line that is
/// not a `--` comment (a blank line, or SQL) ends the header. Parameters bind to `$1`, `$2`, ... in declaration order.
package struct ReportDefinition: Sendable, Hashable {
    /// The report name: the file name without `.sql`, and the argument of `iap-audit report`.
    package var name: String
    /// A short title for the page heading.
    package var title: String
    /// What the report shows and which question it answers.
    package var description: String
    /// The parameters, in `$n` order.
    package var parameters: [ReportParameter]
    /// The chart HTML output draws, if any.
    package var chart: ChartSpec?
    /// Columns whose cells link down to the rows behind them (`link:`, `ReportLink`), where a run writes those pages.
    package var links: [ReportLink] = []
    /// Whether the report shows data the analyst role must not read (e.g. the quarantine's raw text).
    package var isSensitive: Bool
    /// The whole file text, header comments included, so PostgreSQL's error line numbers match the file.
    package var sql: String

    /// Parses a report file; `name` is the file name without `.sql`.
    package static func parse(name: String, text: String) throws(ReportDefinitionError) -> ReportDefinition {
        guard isValidReportName(name) else { throw .invalidName(name) }
        // Editors on Windows may save a byte order mark, which PostgreSQL would reject as a syntax error.
        let text = text.first == "\u{FEFF}" ? String(text.dropFirst()) : text
        var header = Header(report: name)
        let lines = SQLHeader(parsing: text)
        // In file order, so the first bad line is the one reported.
        let firstProse = lines.prose.first?.line ?? Int.max
        for field in lines.fields {
            if firstProse < field.line { break }
            try header.read(field)
        }
        if firstProse < Int.max { throw .malformedHeaderLine(report: name, line: firstProse) }
        let definition = try header.definition(sql: text)
        try definition.checkPlaceholders(SQLPlaceholders(scanning: text))
        return definition
    }

    /// Turns `--param name=value` pairs into the texts to bind to `$1...$n`, in order; nil binds SQL NULL.
    ///
    /// Omitted parameters take their defaults. Unknown names, missing required parameters and values of the wrong
    /// type are rejected with the `--param` to fix.
    package func bind(_ values: [String: String]) throws(ReportDefinitionError) -> [String?] {
        let known = Set(parameters.map(\.name))
        if let unknown = values.keys.filter({ !known.contains($0) }).sorted().first {
            throw .unknownParameter(report: name, name: unknown, known: parameters.map(\.name))
        }
        let missing = parameters.filter { $0.isRequired && values[$0.name] == nil }
        guard missing.isEmpty else { throw .missingParameters(report: name, parameters: missing) }
        var bound: [String?] = []
        bound.reserveCapacity(parameters.count)
        for parameter in parameters {
            if let given = values[parameter.name] {
                guard let value = parameter.kind.normalize(given) else {
                    throw .invalidParameterValue(report: name, name: parameter.name, kind: parameter.kind)
                }
                bound.append(value)
            } else {
                switch parameter.defaultValue {
                case .value(let value): bound.append(value)
                case .null: bound.append(nil)
                case nil: throw .missingParameters(report: name, parameters: [parameter])
                }
            }
        }
        return bound
    }

    /// Every `$n` in the SQL must be declared, and every declared parameter used: PostgreSQL rejects a query that is
    /// sent more values than it has placeholders, and would report either problem far less clearly.
    private func checkPlaceholders(_ placeholders: SQLPlaceholders) throws(ReportDefinitionError) {
        guard placeholders.hasStatement else { throw .missingSQL(report: name) }
        if let undeclared = placeholders.numbers.sorted().first(where: { $0 < 1 || $0 > parameters.count }) {
            throw .undeclaredPlaceholder(report: name, placeholder: undeclared, declared: parameters.count)
        }
        if let unused = parameters.first(where: { !placeholders.numbers.contains($0.position) }) {
            throw .unusedParameter(report: name, name: unused.name, position: unused.position)
        }
    }

    /// Names become file names and command arguments, so only a plain, path-free spelling is accepted.
    private static func isValidReportName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128
            && name.unicodeScalars.allSatisfy {
                HeaderText.isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
            }
    }
}

/// The header keys collected so far while reading a report file line by line.
private struct Header {
    let report: String
    var title: String?
    var description: String?
    var parameters: [ReportParameter] = []
    var chart: ChartSpec?
    var links: [ReportLink] = []
    var isSensitive: Bool?
    var seenKeys: Set<String> = []

    init(report: String) { self.report = report }

    /// Reads one header field; only a title or description may continue on indented lines.
    mutating func read(_ field: SQLHeader.Field) throws(ReportDefinitionError) {
        let lineNumber = field.line
        let key = field.key.lowercased()
        let value = field.value[...]
        guard key.unicodeScalars.allSatisfy({ HeaderText.isASCIILetter($0) || $0 == "_" || $0 == "-" }) else {
            throw .malformedHeaderLine(report: report, line: lineNumber)
        }
        guard ["title", "description", "param", "chart", "link", "sensitive"].contains(key) else {
            throw .unknownHeaderKey(report: report, line: lineNumber, key: key)
        }
        guard key == "param" || key == "link" || !seenKeys.contains(key) else {
            throw .duplicateHeaderKey(report: report, line: lineNumber, key: key)
        }
        guard !value.isEmpty else { throw .emptyHeaderValue(report: report, line: lineNumber, key: key) }
        seenKeys.insert(key)
        if let continued = field.continuationLines.first, key != "title" && key != "description" {
            throw .malformedHeaderLine(report: report, line: continued)
        }
        switch key {
        case "title": title = field.text
        case "description": description = field.text
        case "param":
            try readParameter(value, lineNumber: lineNumber)
        case "chart":
            do {
                chart = try ChartSpec.parse(value)
            } catch {
                throw .invalidChart(report: report, line: lineNumber, reason: error.reason)
            }
        case "link":
            do {
                links.append(try ReportLink.parse(value))
            } catch {
                throw .invalidLink(report: report, line: lineNumber, reason: error.reason)
            }
        default:
            switch value.lowercased() {
            case "true": isSensitive = true
            case "false": isSensitive = false
            default: throw .invalidSensitive(report: report, line: lineNumber)
            }
        }
    }

    private mutating func readParameter(_ value: Substring, lineNumber: Int) throws(ReportDefinitionError) {
        let parameter: ReportParameter
        do {
            parameter = try ReportParameter.parse(value, position: parameters.count + 1)
        } catch {
            throw .invalidParameter(report: report, line: lineNumber, reason: error.reason)
        }
        guard !parameters.contains(where: { $0.name == parameter.name }) else {
            throw .duplicateParameter(report: report, line: lineNumber, name: parameter.name)
        }
        parameters.append(parameter)
    }

    /// The definition, once the header is complete; `sensitive` is required so no report is public by omission.
    func definition(sql: String) throws(ReportDefinitionError) -> ReportDefinition {
        guard let title else { throw .missingHeaderKey(report: report, key: "title") }
        guard let description else { throw .missingHeaderKey(report: report, key: "description") }
        guard let isSensitive else { throw .missingHeaderKey(report: report, key: "sensitive") }
        var definition = ReportDefinition(
            name: report,
            title: title,
            description: description,
            parameters: parameters,
            chart: chart,
            isSensitive: isSensitive,
            sql: sql
        )
        definition.links = links
        return definition
    }
}
