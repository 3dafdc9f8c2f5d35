import Testing

@testable import Reports

/// `-- link: COLUMN -> REPORT PATTERN`: a report's figures linked down to pages of the rows behind them (issue 33).
struct ReportLinkTests {
    static let header = """
        -- title: Bridge
        -- description: Steps.
        -- link: amount -> month-end-rows month-end/{month}-{step_order}-{step}.html
        -- sensitive: false
        SELECT 1

        """

    @Test func aLinkLineNamesTheColumnTheReportAndThePagePattern() throws {
        let definition = try ReportDefinition.parse(name: "bridge", text: Self.header)
        let link = try #require(definition.links.first)
        #expect(link.column == "amount" && link.report == "month-end-rows")
        #expect(link.patternColumns == ["month", "step_order", "step"])
        #expect(link.pathToRoot == "../")
        let columns = ["month", "step_order", "step"].map { ReportColumn(name: $0, kind: .text) }
        // Values become file-name-safe: no input text is ever a path as it is.
        #expect(
            link.page(of: ["2026-09", "60", "sold (customer)"], columns: columns)
                == "month-end/2026-09-60-sold-customer.html")
        #expect(
            link.page(of: ["2026-09", "60", "../../etc/passwd"], columns: columns)
                == "month-end/2026-09-60-etc-passwd.html")
        #expect(link.page(of: ["2026-09", nil, "paid"], columns: columns) == nil)
    }

    @Test(arguments: [
        "amount month-end-rows x/{month}.html", "amount -> month-end-rows", "amount -> rows /abs/{month}.html",
        "amount -> rows ../{month}.html", "amount -> rows fixed.html", "amount -> rows x/{month}.csv",
        "amount -> rows x/{.html",
    ])
    func aLinkLineThatCannotBeReadNamesItsLine(_ value: String) {
        let text = Self.header.replacing(
            "amount -> month-end-rows month-end/{month}-{step_order}-{step}.html", with: value)
        #expect {
            try ReportDefinition.parse(name: "bridge", text: text)
        } throws: { error in
            guard case .invalidLink(_, let line, _) = error as? ReportDefinitionError else { return false }
            return line == 3
        }
    }
}
