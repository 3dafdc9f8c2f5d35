import Testing

@testable import Reports

@Suite struct ReportDefinitionTests {
    static let quarantine = """
        -- title: Quarantine
        -- description: Every record that could not be read, with file, line and reason.
        --   Answers: what did we fail to load?
        -- param: since date = 1970-01-01 -- only records loaded on or after this day
        -- param: kind text = null
        -- chart: bar x=day y=records series=reason
        -- sensitive: true

        -- The reason codes come from the ingest stage.
        SELECT day, reason, count(*) AS records
        FROM quarantine
        WHERE loaded_at >= $1::date AND ($2::text IS NULL OR kind = $2)
        GROUP BY 1, 2
        """

    static func parse(_ text: String, name: String = "sample") throws(ReportDefinitionError) -> ReportDefinition {
        try ReportDefinition.parse(name: name, text: text)
    }

    static func header(_ lines: String..., sql: String = "SELECT 1") -> String {
        lines.joined(separator: "\n") + "\n" + sql
    }

    @Test func readsEveryHeaderKey() throws {
        let definition = try Self.parse(Self.quarantine, name: "quarantine")
        #expect(definition.name == "quarantine")
        #expect(definition.title == "Quarantine")
        #expect(
            definition.description
                == "Every record that could not be read, with file, line and reason. Answers: what did we fail to load?"
        )
        #expect(
            definition.parameters == [
                ReportParameter(
                    name: "since", kind: .date, defaultValue: .value("1970-01-01"),
                    help: "only records loaded on or after this day", position: 1),
                ReportParameter(name: "kind", kind: .text, defaultValue: .null, position: 2),
            ]
        )
        #expect(definition.chart == ChartSpec(kind: .bar, x: "day", y: "records", series: "reason"))
        #expect(definition.isSensitive)
        #expect(definition.sql == Self.quarantine)
    }

    @Test func acceptsCRLFLineEndsAndLeadingBlankLines() throws {
        let text = "\r\n-- title: T\r\n-- description: D\r\n-- sensitive: false\r\nSELECT 1\r\n"
        let definition = try Self.parse(text)
        #expect(definition.title == "T")
        #expect(definition.isSensitive == false)
        #expect(definition.parameters.isEmpty)
        #expect(definition.chart == nil)
    }

    @Test func dropsByteOrderMarkFromHeaderAndSQL() throws {
        let definition = try Self.parse("\u{FEFF}-- title: T\n-- description: D\n-- sensitive: false\nSELECT 1")
        #expect(definition.title == "T")
        #expect(definition.sql == "-- title: T\n-- description: D\n-- sensitive: false\nSELECT 1")
    }

    @Test func readsGroupedLineChartAndAllParameterTypes() throws {
        let definition = try Self.parse(
            Self.header(
                "-- title: T", "-- description: D", "-- sensitive: false",
                "-- chart: bar x=rule y=flags layout=grouped series=app",
                "-- param: a text", "-- param: b date", "-- param: c timestamptz = 2014-03-02T10:11:12Z",
                "-- param: d integer = 30", "-- param: e numeric = -1.5", "-- param: f boolean = TRUE",
                sql: "SELECT $1, $2, $3, $4, $5, $6"
            )
        )
        #expect(definition.chart?.layout == .grouped)
        #expect(definition.parameters.map(\.kind) == [.text, .date, .timestamptz, .integer, .numeric, .boolean])
        #expect(definition.parameters.map(\.position) == [1, 2, 3, 4, 5, 6])
        #expect(definition.parameters.map(\.isRequired) == [true, true, false, false, false, false])
        #expect(definition.parameters[5].defaultValue == .value("true"))
    }

    @Test func rejectsUnknownHeaderKeyNamingTheLine() {
        #expect(throws: ReportDefinitionError.unknownHeaderKey(report: "sample", line: 2, key: "titel")) {
            try Self.parse(Self.header("-- title: T", "-- titel: T", "-- description: D", "-- sensitive: false"))
        }
        let error = ReportDefinitionError.unknownHeaderKey(report: "sample", line: 2, key: "titel")
        #expect(error.description.contains("reports/sample.sql line 2"))
    }

    @Test func rejectsHeaderLineWithoutKey() {
        #expect(throws: ReportDefinitionError.malformedHeaderLine(report: "sample", line: 4)) {
            try Self.parse(Self.header("-- title: T", "-- description: D", "-- sensitive: false", "-- join the rows"))
        }
        #expect(throws: ReportDefinitionError.malformedHeaderLine(report: "sample", line: 1)) {
            try Self.parse(Self.header("-- a b: c", "-- description: D", "-- sensitive: false"))
        }
    }

    @Test func rejectsDuplicateHeaderKeys() {
        #expect(throws: ReportDefinitionError.duplicateHeaderKey(report: "sample", line: 3, key: "title")) {
            try Self.parse(Self.header("-- title: T", "-- description: D", "-- title: U", "-- sensitive: false"))
        }
        #expect(throws: ReportDefinitionError.duplicateHeaderKey(report: "sample", line: 5, key: "chart")) {
            try Self.parse(
                Self.header(
                    "-- title: T", "-- description: D", "-- sensitive: false", "-- chart: bar x=a y=b",
                    "-- chart: line x=a y=b"))
        }
    }

    @Test func rejectsEmptyHeaderValue() {
        #expect(throws: ReportDefinitionError.emptyHeaderValue(report: "sample", line: 2, key: "description")) {
            try Self.parse(Self.header("-- title: T", "-- description:   ", "-- sensitive: false"))
        }
    }

    @Test func requiresTitleDescriptionAndSensitive() {
        #expect(throws: ReportDefinitionError.missingHeaderKey(report: "sample", key: "title")) {
            try Self.parse(Self.header("-- description: D", "-- sensitive: false"))
        }
        #expect(throws: ReportDefinitionError.missingHeaderKey(report: "sample", key: "description")) {
            try Self.parse(Self.header("-- title: T", "-- sensitive: false"))
        }
        #expect(throws: ReportDefinitionError.missingHeaderKey(report: "sample", key: "sensitive")) {
            try Self.parse(Self.header("-- title: T", "-- description: D"))
        }
        #expect(
            ReportDefinitionError.missingHeaderKey(report: "a", key: "sensitive").description
                == "reports/a.sql: the header has no '-- sensitive: true|false' line")
    }

    @Test func rejectsSensitiveOtherThanTrueOrFalse() {
        #expect(throws: ReportDefinitionError.invalidSensitive(report: "sample", line: 3)) {
            try Self.parse(Self.header("-- title: T", "-- description: D", "-- sensitive: yes"))
        }
    }

    @Test func rejectsDuplicateParameter() {
        #expect(throws: ReportDefinitionError.duplicateParameter(report: "sample", line: 5, name: "since")) {
            try Self.parse(
                Self.header(
                    "-- title: T", "-- description: D", "-- sensitive: false", "-- param: since date",
                    "-- param: since text", sql: "SELECT $1, $2"))
        }
    }

    @Test(arguments: [
        ("since", "expected 'NAME TYPE"),
        ("since date extra", "expected 'NAME TYPE"),
        ("1since date", "is not a usable name"),
        ("since int", "unknown type 'int'"),
        ("since date =", "has '=' but no default"),
        ("since date = 2014-13-01", "the default of 'since' is not a date"),
        ("n integer = ten", "the default of 'n' is not a whole number"),
    ])
    func rejectsMalformedParameterDeclaration(declaration: String, reason: String) throws {
        let text = Self.header("-- title: T", "-- description: D", "-- sensitive: false", "-- param: \(declaration)")
        let error = try #require(throws: ReportDefinitionError.self) { try Self.parse(text) }
        guard case .invalidParameter(let report, let line, let message) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(report == "sample")
        #expect(line == 4)
        #expect(message.contains(reason), "\(message)")
    }

    @Test(arguments: [
        ("", "start with the chart kind"),
        ("x=day y=variance", "start with the chart kind"),
        ("pie x=day y=variance", "unknown chart kind 'pie'"),
        ("bar", "a chart needs the columns to draw"),
        ("bar x=day", "a chart needs the columns to draw"),
        ("bar x=day y=variance z=w", "unknown chart option 'z'"),
        ("bar x=day x=month y=variance", "given twice"),
        ("bar x= y=variance", "expected option=value"),
        ("bar day variance", "expected option=value"),
        ("line x=day y=variance layout=stacked", "layout applies to bar charts only"),
        ("bar x=day y=variance layout=pile", "layout must be stacked or grouped"),
    ])
    func rejectsMalformedChart(chart: String, reason: String) throws {
        let text = Self.header("-- title: T", "-- description: D", "-- chart: \(chart)", "-- sensitive: false")
        let error = try #require(throws: ReportDefinitionError.self) { try Self.parse(text) }
        if chart.isEmpty {
            #expect(error == .emptyHeaderValue(report: "sample", line: 3, key: "chart"))
            return
        }
        guard case .invalidChart(_, let line, let message) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(line == 3)
        #expect(message.contains(reason), "\(message)")
    }

    @Test func rejectsFileWithoutSQL() {
        #expect(throws: ReportDefinitionError.missingSQL(report: "sample")) {
            try Self.parse(Self.header("-- title: T", "-- description: D", "-- sensitive: false", sql: "\n-- todo\n"))
        }
    }

    @Test func rejectsPlaceholderBeyondDeclaredParameters() {
        let text = Self.header(
            "-- title: T", "-- description: D", "-- sensitive: false", "-- param: a text", sql: "SELECT $1, $2")
        #expect(throws: ReportDefinitionError.undeclaredPlaceholder(report: "sample", placeholder: 2, declared: 1)) {
            try Self.parse(text)
        }
    }

    @Test func rejectsDeclaredParameterTheSQLNeverUses() {
        let text = Self.header(
            "-- title: T", "-- description: D", "-- sensitive: false", "-- param: a text", "-- param: b text",
            sql: "SELECT $2 -- $1 in a comment does not count\n, '$1', \"$1\", $$ $1 $$, $t$ $1 $t$, E'\\' $1', a$1")
        #expect(throws: ReportDefinitionError.unusedParameter(report: "sample", name: "a", position: 1)) {
            try Self.parse(text)
        }
    }

    @Test func rejectsNamesThatAreNotPlainFileNames() {
        for name in ["", "../etc/passwd", "a b", "flags/by-rule"] {
            #expect(throws: ReportDefinitionError.invalidName(name)) {
                try Self.parse(Self.quarantine, name: name)
            }
        }
    }

    @Test func findsPlaceholdersOutsideCommentsAndStrings() {
        let scan = SQLPlaceholders(
            scanning: "/* $9 /* nested $8 */ $7 */ SELECT $1, x::int + $3 FROM t WHERE s = 'it''s $4' AND $10 > 0")
        #expect(scan.hasStatement)
        #expect(scan.numbers == [1, 3, 10])
        #expect(SQLPlaceholders(scanning: "-- only a comment\n  /* and another */\n").hasStatement == false)
    }
}
