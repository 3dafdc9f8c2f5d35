import Testing

@testable import Reports

/// The one reader of every SQL file's header: reports, rules and query files.
@Suite struct SQLHeaderTests {
    @Test func readsFieldsContinuationsAndProseUpToTheFirstOtherLine() {
        let header = SQLHeader(
            parsing: """

                -- rule: many-store-accounts
                -- setting: window_days integer = 30
                -- description: One account paying
                --   from many store accounts.
                --
                -- every subject: hash joins
                --   (the planner's estimate collapses)
                -- The flags page (docs/reports.md): every open flag.
                -- $1: the window in days
                SELECT 1;
                -- not: header
                """)
        #expect(header.fields.map(\.key) == ["rule", "setting", "description", "every subject", "$1"])
        #expect(header.field("description")?.text == "One account paying from many store accounts.")
        #expect(header.field("description")?.value == "One account paying")
        #expect(header.field("every subject")?.value == "hash joins")
        #expect(header.field("every subject")?.continuationLines == [8])
        #expect(header.field("setting")?.line == 3)
        #expect(header.prose.map(\.line) == [9])
        #expect(header.proseText == "The flags page (docs/reports.md): every open flag.")
        #expect(header.field("not") == nil)
    }

    @Test func countsLinesAsEditorsDoWhateverTheLineEnds() {
        let header = SQLHeader(parsing: "\u{FEFF}-- title: T\r\n-- sensitive: false\r-- param: a text\nSELECT $1")
        #expect(header.fields.map(\.line) == [1, 2, 3])
        #expect(header.fields("param").map(\.value) == ["a text"])
    }

    @Test func aReportFieldOtherThanTitleOrDescriptionDoesNotContinue() {
        #expect(throws: ReportDefinitionError.malformedHeaderLine(report: "r", line: 4)) {
            try ReportDefinition.parse(
                name: "r",
                text: "-- title: T\n-- description: D\n-- param: a text\n--   more\n-- sensitive: false\nSELECT $1")
        }
    }
}
