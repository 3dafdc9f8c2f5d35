import Testing

@testable import Reports

@Suite struct ReportCSVTests {
    static func csv(_ columns: [ReportColumn], _ rows: [[String?]]) -> [UInt8] {
        ReportRenderer.render(ReportFixtures.table(columns: columns, rows: rows), as: .csv, chart: nil)
    }

    @Test func startsWithByteOrderMarkAndEndsRecordsWithCRLF() {
        let bytes = Self.csv(
            [ReportColumn(name: "a", kind: .text), ReportColumn(name: "b", kind: .integer)],
            [["x", "1"], ["y", "2"]])
        #expect(Array(bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(ReportFixtures.string(Array(bytes.dropFirst(3))) == "a,b\r\nx,1\r\ny,2\r\n")
    }

    @Test func quotesFieldsThatNeedIt() {
        let rows: [[String?]] = [
            ["a,b"], ["say \"hi\""], ["two\nlines"], ["cr\rhere"], [" lead"], ["trail "], ["plain"], [""], [nil],
        ]
        let text = ReportFixtures.string(Array(Self.csv([ReportColumn(name: "v", kind: .text)], rows).dropFirst(3)))
        let expected = [
            "v", "\"a,b\"", "\"say \"\"hi\"\"\"", "\"two\nlines\"", "\"cr\rhere\"", "\" lead\"", "\"trail \"",
            "plain", "", "",
        ]
        #expect(text == expected.joined(separator: "\r\n") + "\r\n")
    }

    @Test func neutralisesFormulaInjectionInText() {
        let rows: [[String?]] = [["=1+1"], ["+1"], ["-1"], ["@SUM(A1)"], ["\tx"], ["\rx"], ["=A1,B1"], ["a=1"]]
        let text = ReportFixtures.string(Array(Self.csv([ReportColumn(name: "v", kind: .text)], rows).dropFirst(3)))
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(lines[1] == "'=1+1")
        #expect(lines[2] == "'+1")
        #expect(lines[3] == "'-1")
        #expect(lines[4] == "'@SUM(A1)")
        #expect(lines[5] == "'\tx")
        #expect(lines[6] == "\"'\rx\"")
        #expect(lines[7] == "\"'=A1,B1\"")
        #expect(lines[8] == "a=1")
    }

    @Test func keepsNegativeNumbersInNumericColumnsAsNumbers() {
        let columns = [
            ReportColumn(name: "units", kind: .integer), ReportColumn(name: "amount", kind: .decimal),
            ReportColumn(name: "note", kind: .text),
        ]
        let rows: [[String?]] = [["-3", "-0.25", "-3"], ["=1+2", "-Infinity", "ok"], ["+5", "1e-05", "x"]]
        let text = ReportFixtures.string(Array(Self.csv(columns, rows).dropFirst(3)))
        #expect(text == "units,amount,note\r\n-3,-0.25,'-3\r\n'=1+2,'-Infinity,ok\r\n'+5,1e-05,x\r\n")
    }

    @Test func writesBooleansAsWordsAndNullAsEmpty() {
        let columns = [ReportColumn(name: "ok", kind: .boolean), ReportColumn(name: "when", kind: .timestamp)]
        let text = ReportFixtures.string(
            Array(Self.csv(columns, [["t", nil], ["f", "2014-03-02 10:11:12+00"]]).dropFirst(3)))
        #expect(text == "ok,when\r\ntrue,\r\nfalse,2014-03-02 10:11:12+00\r\n")
    }

    @Test func neutralisesHostileColumnNames() {
        let text = ReportFixtures.string(
            Array(Self.csv([ReportColumn(name: "=cmd|' /C calc'!A0", kind: .text)], []).dropFirst(3)))
        #expect(text == "'=cmd|' /C calc'!A0\r\n")
    }

    @Test func readsShortRowsAsNull() {
        let columns = [ReportColumn(name: "a", kind: .text), ReportColumn(name: "b", kind: .text)]
        let text = ReportFixtures.string(Array(Self.csv(columns, [["x"]]).dropFirst(3)))
        #expect(text == "a,b\r\nx,\r\n")
    }
}
