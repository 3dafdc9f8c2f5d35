/// Why a report file could not be read, or why the parameters given for a run do not fit it.
///
/// Messages name the file and line, or the `--param` to fix. They never repeat a parameter value: a user who passes
/// a raw username where a hash belongs must not find it copied into logs.
package enum ReportDefinitionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The report name is not usable as a file name (`reports/NAME.sql`).
    case invalidName(String)
    /// A header line is not of the form `-- key: value`.
    case malformedHeaderLine(report: String, line: Int)
    /// A header line has a key the format does not know.
    case unknownHeaderKey(report: String, line: Int, key: String)
    /// A key that may appear once appears again.
    case duplicateHeaderKey(report: String, line: Int, key: String)
    /// A header key has nothing after the colon.
    case emptyHeaderValue(report: String, line: Int, key: String)
    /// A required header key is absent.
    case missingHeaderKey(report: String, key: String)
    /// `sensitive:` is neither true nor false.
    case invalidSensitive(report: String, line: Int)
    /// A `param:` line cannot be read; `reason` says what is wrong.
    case invalidParameter(report: String, line: Int, reason: String)
    /// Two `param:` lines declare the same name.
    case duplicateParameter(report: String, line: Int, name: String)
    /// A `chart:` line cannot be read; `reason` says what is wrong.
    case invalidChart(report: String, line: Int, reason: String)
    /// A `link:` line cannot be read; `reason` says what is wrong.
    case invalidLink(report: String, line: Int, reason: String)
    /// The file has a header but no statement.
    case missingSQL(report: String)
    /// The SQL uses `$placeholder` but fewer parameters are declared.
    case undeclaredPlaceholder(report: String, placeholder: Int, declared: Int)
    /// A declared parameter's `$position` never appears in the SQL (PostgreSQL would refuse the extra value).
    case unusedParameter(report: String, name: String, position: Int)
    /// A run did not give these required parameters.
    case missingParameters(report: String, parameters: [ReportParameter])
    /// A run gave a parameter the report does not declare.
    case unknownParameter(report: String, name: String, known: [String])
    /// A run gave a value that is not of the parameter's type.
    case invalidParameterValue(report: String, name: String, kind: ReportParameter.Kind)

    /// What failed, where, and what to do about it.
    package var description: String {
        switch self {
        case .invalidName(let name):
            return
                "report name '\(name)' is not usable: use letters, digits, '_' and '-' (the file is reports/NAME.sql)"
        case .malformedHeaderLine(let report, let line):
            return "\(Self.file(report)) line \(line): expected '-- key: value' with key title, description, param, "
                + "chart, link or sensitive; leave a blank line between the header and other comments"
        case .unknownHeaderKey(let report, let line, let key):
            return "\(Self.file(report)) line \(line): unknown header key '\(key)'; "
                + "the keys are title, description, param, chart, link and sensitive"
        case .duplicateHeaderKey(let report, let line, let key):
            return "\(Self.file(report)) line \(line): '\(key):' appears a second time; give it once"
        case .emptyHeaderValue(let report, let line, let key):
            return "\(Self.file(report)) line \(line): '\(key):' has no value"
        case .missingHeaderKey(let report, let key):
            let form = key == "sensitive" ? "sensitive: true|false" : "\(key): ..."
            return "\(Self.file(report)): the header has no '-- \(form)' line"
        case .invalidSensitive(let report, let line):
            return "\(Self.file(report)) line \(line): 'sensitive:' must be true or false"
        case .invalidParameter(let report, let line, let reason):
            return "\(Self.file(report)) line \(line): param: \(reason)"
        case .duplicateParameter(let report, let line, let name):
            return "\(Self.file(report)) line \(line): parameter '\(name)' is declared twice"
        case .invalidChart(let report, let line, let reason):
            return "\(Self.file(report)) line \(line): chart: \(reason)"
        case .invalidLink(let report, let line, let reason):
            return "\(Self.file(report)) line \(line): link: \(reason)"
        case .missingSQL(let report):
            return "\(Self.file(report)) has a header but no SQL statement"
        case .undeclaredPlaceholder(let report, let placeholder, let declared):
            let declaredText = declared == 1 ? "1 parameter" : "\(declared) parameters"
            return "\(Self.file(report)): the SQL uses $\(placeholder) but the header declares \(declaredText) "
                + "($1, $2, ... follow the order of the '-- param:' lines)"
        case .unusedParameter(let report, let name, let position):
            return "\(Self.file(report)): parameter '\(name)' is $\(position) but the SQL never uses $\(position)"
        case .missingParameters(let report, let parameters):
            let usage = parameters.map { "--param \($0.name)=\($0.kind.placeholder)" }.joined(separator: " ")
            let help = parameters.compactMap { parameter in parameter.help.map { "\(parameter.name): \($0)" } }
            let helpText = help.isEmpty ? "" : " (" + help.joined(separator: "; ") + ")"
            return "report '\(report)' needs \(usage)\(helpText)"
        case .unknownParameter(let report, let name, let known):
            guard !known.isEmpty else { return "report '\(report)' takes no parameters, but --param \(name) was given" }
            return "report '\(report)' has no parameter '\(name)'; its parameters are \(known.joined(separator: ", "))"
        case .invalidParameterValue(let report, let name, let kind):
            return "report '\(report)': --param \(name) must be \(kind.expectation)"
        }
    }

    private static func file(_ report: String) -> String { "reports/\(report).sql" }
}
