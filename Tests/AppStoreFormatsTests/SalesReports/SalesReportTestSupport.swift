import AppStoreFormats
import Foundation
import TestSupport

/// What feeding one whole file to `SalesReportParser` produced, line by line.
struct ParsedSalesReport {
    var results: [(line: Int, result: ReportLineResult)] = []
    var findings: [ReportFinding] = []
    var layout: ReportLayout?
    var columnNames: [String] = []

    var rows: [SalesReportRow] {
        results.compactMap { if case .row(let row) = $0.result { row } else { nil } }
    }

    var rejections: [ReportRowIssue] {
        results.compactMap { if case .rejected(let issue) = $0.result { issue } else { nil } }
    }

    var trailers: [ReportTrailer] {
        results.compactMap { if case .trailer(let trailer) = $0.result { trailer } else { nil } }
    }

    var headerLines: [Int] {
        results.compactMap { if case .header = $0.result { $0.line } else { nil } }
    }

    var blankLines: [Int] {
        results.compactMap { $0.result == .blank ? $0.line : nil }
    }

    var skippedLines: [Int] {
        results.compactMap { $0.result == .skipped ? $0.line : nil }
    }

    var findingCodes: [String] { findings.map(\.code) }

    /// The stored row read from `line`, if that line was one.
    func row(atLine line: Int) -> SalesReportRow? {
        rows.first { $0.line == line }
    }
}

/// Reads corpus files and fixtures the way the ingest stage does: LF-split lines, trailing CR removed.
enum SalesReportFixtures {
    /// Every report file of the sales corpus that is here (see `TestCorpus`), sorted.
    static func corpusFileNames() throws -> [String] {
        try TestCorpus.files(in: "sales")
    }

    /// Whether the sales sample `name` is here: the unlicensed ones only with `../shared/corpus` beside the project.
    static func isAvailable(_ name: String) -> Bool {
        TestCorpus.isAvailable("sales/" + name)
    }

    static func corpusBytes(_ name: String) throws -> [UInt8] {
        try TestCorpus.bytes("sales/" + name)
    }

    static func parseCorpusFile(_ name: String) throws -> ParsedSalesReport {
        parse(bytes: try corpusBytes(name))
    }

    /// Parses text written in a test; `\t` separates fields.
    static func parse(_ text: String) -> ParsedSalesReport {
        parse(bytes: Array(text.utf8))
    }

    static func parse(bytes: [UInt8]) -> ParsedSalesReport {
        var parser = SalesReportParser()
        var parsed = ParsedSalesReport()
        for (index, line) in lines(of: bytes).enumerated() {
            parsed.results.append((index + 1, parser.consume(line: line, number: index + 1)))
        }
        parsed.findings = parser.finish()
        parsed.layout = parser.layout
        parsed.columnNames = parser.columnNames
        return parsed
    }

    /// LF-split lines with a trailing CR removed; a final LF does not start another line.
    static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if bytes.last == UInt8(ascii: "\n") { lines.removeLast() }
        return lines.map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
    }

    static let sales18Header = ReportHeaders.sales18

    /// One 18-column row; override fields by header name.
    static func sales18Row(_ overrides: [String: String] = [:]) -> String {
        let defaults: [(String, String)] = [
            ("Provider", "APPLE"), ("Provider Country", "US"), ("SKU", "com.example.game.coins100"),
            ("Developer", "Example"), ("Title", "100 Coins"), ("Version", " "), ("Product Type Identifier", "IA1"),
            ("Units", "3"), ("Developer Proceeds", "0.70"), ("Begin Date", "03/02/2014"), ("End Date", "03/02/2014"),
            ("Customer Currency", "USD"), ("Country Code", "US"), ("Currency of Proceeds", "USD"),
            ("Apple Identifier", "812345678"), ("Customer Price", "0.99"), ("Promo Code", " "),
            ("Parent Identifier", "GAME1"),
        ]
        return defaults.map { overrides[$0.0] ?? $0.1 }.joined(separator: "\t")
    }

    static let financialHeader = ReportHeaders.financial

    static func financialRow(
        vendor: String = "com.example.game.coins100", quantity: Int, share: String = "0.70",
        extended: String, salesOrReturn: String = "S", price: String = "0.99"
    ) -> String {
        [
            "03/02/2014", "03/29/2014", "", "", vendor, "\(quantity)", share, extended, "USD", salesOrReturn,
            "812345678", "Example", "100 Coins", "", "", "IA1", "", "US", "", "", price, "USD",
        ].joined(separator: "\t")
    }
}
