import Foundation
import Testing

@testable import Reports

@Suite struct ReportJSONTests {
    static let columns = [
        ReportColumn(name: "name", kind: .text), ReportColumn(name: "units", kind: .integer),
        ReportColumn(name: "amount", kind: .decimal), ReportColumn(name: "refunded", kind: .boolean),
        ReportColumn(name: "day", kind: .date), ReportColumn(name: "at", kind: .timestamp),
        ReportColumn(name: "evidence", kind: .json),
    ]

    static func parse(_ table: ReportTable) throws -> [[String: Any]] {
        let bytes = ReportRenderer.render(table, as: .json, chart: nil)
        let object = try JSONSerialization.jsonObject(with: Data(bytes))
        return try #require(object as? [[String: Any]])
    }

    @Test func typesNumbersBooleansJSONAndNulls() throws {
        let table = ReportFixtures.table(
            columns: Self.columns,
            rows: [
                ["com.example.gems", "-3", "12.5000", "t", "2014-03-02", "2014-03-02 10:11:12+00", #"{"a": [1, 2]}"#],
                [nil, nil, "NaN", "f", nil, nil, nil],
                ["x", "7", "1e+100", nil, nil, nil, "{not json"],
            ])
        let rows = try Self.parse(table)
        #expect(rows.count == 3)
        #expect(rows[0]["name"] as? String == "com.example.gems")
        #expect((rows[0]["units"] as? NSNumber)?.intValue == -3)
        #expect((rows[0]["amount"] as? NSNumber)?.doubleValue == 12.5)
        #expect(rows[0]["refunded"] as? Bool == true)
        #expect(rows[0]["day"] as? String == "2014-03-02")
        #expect(rows[0]["at"] as? String == "2014-03-02 10:11:12+00")
        let evidence = try #require(rows[0]["evidence"] as? [String: Any])
        #expect((evidence["a"] as? [NSNumber])?.map(\.intValue) == [1, 2])
        #expect(rows[1]["name"] is NSNull)
        #expect(rows[1]["units"] is NSNull)
        #expect(rows[1]["amount"] as? String == "NaN")
        #expect(rows[1]["refunded"] as? Bool == false)
        #expect((rows[2]["amount"] as? NSNumber)?.doubleValue == 1e100)
        #expect(rows[2]["evidence"] as? String == "{not json")
    }

    @Test func writesNumbersVerbatimAndOneRowPerLine() {
        let table = ReportFixtures.table(
            columns: [ReportColumn(name: "amount", kind: .decimal), ReportColumn(name: "ok", kind: .boolean)],
            rows: [["12.5000", "t"], ["-0.10", "f"]])
        #expect(
            ReportFixtures.render(table, .json)
                == "[\n{\"amount\":12.5000,\"ok\":true},\n{\"amount\":-0.10,\"ok\":false}\n]\n")
    }

    @Test func escapesStringsSoTheyRoundTrip() throws {
        let nasty =
            "quote \" backslash \\ slash / tab \t newline \n cr \r nul \u{0} bell \u{7} esc \u{1B} "
            + "line-sep \u{2028} para-sep \u{2029} emoji 🧾 accents é ü ß 日本"
        let table = ReportFixtures.table(columns: [ReportColumn(name: "k\"ey\n", kind: .text)], rows: [[nasty]])
        let text = ReportFixtures.render(table, .json)
        #expect(text.contains("\\u0000"))
        #expect(text.contains("\\u001b"))
        #expect(text.contains("\\u2028"))
        #expect(text.contains("\\u2029"))
        #expect(!text.contains("\u{2028}"))
        #expect(text.contains("🧾 accents é ü ß 日本"))
        let rows = try Self.parse(table)
        #expect(rows.first?["k\"ey\n"] as? String == nasty)
    }

    @Test func embedsJSONColumnsMinifiedAndSafe() throws {
        let value =
            "{\n  \"rule\": \"velocity\",\n  \"n\": [1, -2.5e3, true, null],\n  \"s\": \"a\u{2028}b \\ud83e\\uddfe\"\n}"
        let table = ReportFixtures.table(columns: [ReportColumn(name: "evidence", kind: .json)], rows: [[value]])
        let text = ReportFixtures.render(table, .json)
        let expected = #"{"evidence":{"rule":"velocity","n":[1,-2.5e3,true,null],"s":"a\u2028b \ud83e\uddfe"}}"#
        #expect(text == "[\n" + expected + "\n]\n")
        let rows = try Self.parse(table)
        let evidence = try #require(rows.first?["evidence"] as? [String: Any])
        #expect(evidence["s"] as? String == "a\u{2028}b 🧾")
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "tru", "\"\\x\"", "\"\\ud83e\"", "\"a\nb\"", "[1] [2]", "NaN",
        String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
    ])
    func writesInvalidJSONColumnValuesAsStrings(value: String) throws {
        let table = ReportFixtures.table(columns: [ReportColumn(name: "j", kind: .json)], rows: [[value]])
        let rows = try Self.parse(table)
        #expect(rows.first?["j"] as? String == value)
    }

    @Test func makesDuplicateColumnNamesUnique() throws {
        let table = ReportFixtures.table(
            columns: [
                ReportColumn(name: "count", kind: .integer), ReportColumn(name: "count", kind: .integer),
                ReportColumn(name: "count_2", kind: .integer),
            ],
            rows: [["1", "2", "3"]])
        let rows = try Self.parse(table)
        #expect(rows.first?.count == 3)
        #expect((rows.first?["count_3"] as? NSNumber)?.intValue == 2)
    }

    @Test func writesEmptyArrayForNoRows() {
        #expect(ReportFixtures.render(ReportFixtures.table(columns: Self.columns, rows: []), .json) == "[]\n")
    }
}
