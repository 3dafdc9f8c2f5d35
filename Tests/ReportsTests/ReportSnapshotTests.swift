import Foundation
import TestSupport
import Testing

@testable import Reports

/// Every shipped report, rendered from committed fixture rows (`Snapshots/NAME.rows.json`, rows as the demo's run
/// gives them) in every format and compared with the committed pages (`Snapshots/NAME.html.snapshot`, `.csv.snapshot`,
/// `.json.snapshot`, `.md.snapshot`: expected output, kept as data).
///
/// A change to a page shows as a diff of its lines in the failure. When the change is meant, write the new pages with
/// `IAP_AUDIT_UPDATE_SNAPSHOTS=1 swift test --filter ReportSnapshotTests` and review them with `git diff`.
struct ReportSnapshotTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Snapshots")

    /// The shipped report names, from `reports/`.
    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("reports").path))
        return (files ?? []).filter { $0.hasSuffix(".sql") }.map { String($0.dropLast(4)) }.sorted()
    }()

    /// The fixture of report `name`: its columns, rows and the time it says it was generated.
    static func table(_ name: String, definition: ReportDefinition) throws -> ReportTable {
        let data = try Data(contentsOf: snapshots.appendingPathComponent("\(name).rows.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let columns = try #require(object["columns"] as? [[String: String]]).map { column in
            ReportColumn(name: column["name"] ?? "", kind: ColumnKind(rawValue: column["kind"] ?? "") ?? .text)
        }
        let rows = try #require(object["rows"] as? [[Any]]).map { row in row.map { $0 as? String } }
        let given = object["parameters"] as? [String: String] ?? [:]
        return ReportTable(
            title: definition.title, description: definition.description, columns: columns, rows: rows,
            generatedAt: object["generatedAt"] as? String ?? "",
            parameters: definition.parameters.map { parameter in
                given[parameter.name].map { ReportTable.Parameter(name: parameter.name, value: $0) }
                    ?? ReportTable.Parameter(name: parameter.name, value: nil, isDefault: true)
            })
    }

    @Test func everyReportHasAFixture() {
        #expect(Self.names.count >= 9)
        for name in Self.names {
            #expect(
                FileManager.default.fileExists(atPath: Self.snapshots.appendingPathComponent("\(name).rows.json").path),
                "reports/\(name).sql has no Tests/ReportsTests/Snapshots/\(name).rows.json")
        }
    }

    @Test(arguments: names) func theReportRendersAsCommitted(_ name: String) throws {
        let text = try String(
            contentsOf: Self.root.appendingPathComponent("reports/\(name).sql"), encoding: .utf8)
        let definition = try ReportDefinition.parse(name: name, text: text)
        guard FileManager.default.fileExists(atPath: Self.snapshots.appendingPathComponent("\(name).rows.json").path)
        else { return }
        var table = try Self.table(name, definition: definition)
        table.navigation = [ReportTable.Link(text: "Run summary", href: "index.html")]
        for format in ReportFormat.allCases {
            let actual = String(
                decoding: ReportRenderer.render(table, as: format, chart: definition.chart), as: UTF8.self)
            let file = Self.snapshots.appendingPathComponent("\(name).\(format.fileExtension).snapshot")
            let mismatch = try Snapshot.mismatch(actual, file: file)
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
    }

    @Test func theDiffShowsTheChangedLines() {
        let diff = Snapshot.diff("a\nb\nc\nd\ne", "a\nb\nX\nd\ne")
        #expect(diff == "@@ line 3 @@\n  a\n  b\n- c\n+ X\n  d\n  e")
    }
}
