@testable import Reports

/// Report results shared by the renderer tests, with the hostile values that input may carry.
enum ReportFixtures {
    static let hostileValues = [
        "<script>alert(1)</script>",
        "'; DROP TABLE x; --",
        "\"onmouseover=alert(1) x=\"",
        "=HYPERLINK(\"http://evil\",\"x\")",
    ]

    static func table(
        columns: [ReportColumn],
        rows: [[String?]],
        title: String = "Variance",
        description: String = "Units recorded minus units reported, per day."
    ) -> ReportTable {
        ReportTable(
            title: title,
            description: description,
            columns: columns,
            rows: rows,
            generatedAt: "2014-03-02 10:11:12+00",
            parameters: [.init(name: "since", value: "2014-03-01"), .init(name: "app", value: nil)]
        )
    }

    /// Daily variance per currency, with a negative day.
    static let variance = table(
        columns: [
            ReportColumn(name: "day", kind: .date), ReportColumn(name: "currency", kind: .text),
            ReportColumn(name: "variance", kind: .decimal),
        ],
        rows: [
            ["2014-03-01", "USD", "12.50"],
            ["2014-03-01", "EUR", "3.00"],
            ["2014-03-02", "USD", "-4.25"],
            ["2014-03-02", "EUR", "-1.00"],
            ["2014-03-03", "USD", "7"],
        ]
    )

    static func string(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    static func render(_ table: ReportTable, _ format: ReportFormat, chart: ChartSpec? = nil) -> String {
        string(ReportRenderer.render(table, as: format, chart: chart))
    }

    /// How often `needle` occurs in `text`, without overlaps.
    static func count(_ needle: String, in text: String) -> Int {
        text.ranges(of: needle).count
    }
}
