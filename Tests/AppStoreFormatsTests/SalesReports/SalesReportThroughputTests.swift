import AppStoreFormats
import Foundation
import Testing

/// Throughput on a generated million-row, 28-column report. Off by default (it wants a release build):
/// `SALES_REPORT_BENCHMARK=1 swift test -c release --filter SalesReportThroughputTests`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SALES_REPORT_BENCHMARK"] != nil))
struct SalesReportThroughputTests {
    @Test func parsesAMillionRowsOfThe28ColumnLayout() throws {
        let corpus = try SalesReportFixtures.corpusBytes("sales_2020-10-05_28col_appstore-sdk-go_sales.tsv")
        let lines = SalesReportFixtures.lines(of: corpus)
        let header = lines[0]
        let samples = Array(lines.dropFirst())
        let rowCount = 1_000_000
        var file: [UInt8] = Array(header) + [UInt8(ascii: "\n")]
        file.reserveCapacity(rowCount * 160)
        for index in 0..<rowCount {
            file += samples[index % samples.count]
            file.append(UInt8(ascii: "\n"))
        }
        let fileLines = SalesReportFixtures.lines(of: file)

        let clock = ContinuousClock()
        var parser = SalesReportParser()
        var stored = 0
        var units = 0
        let elapsed = clock.measure {
            for (index, line) in fileLines.enumerated() {
                if case .row(let row) = parser.consume(line: line, number: index + 1) {
                    stored += 1
                    units &+= row.units
                }
            }
        }
        let seconds = Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds)
        print("parsed \(stored) rows in \(seconds) s: \(Int(Double(stored) / seconds)) rows/s")
        #expect(stored == rowCount)
        #expect(parser.finish().isEmpty)
        #expect(Double(stored) / seconds > 200_000)
    }
}
