import AppStoreFormats
import Foundation
import Gzip
import SyntheticData
import Testing

/// The sales report generator: Apple's names and layout, multi-member gzip, weekly reports that are the sum of
/// their days, and the same bytes from the same seed.
struct SalesReportGeneratorTests {
    func generate(into directory: String) throws -> SalesManifest {
        var scenario = ReceiptScenario.small
        scenario.seed = 1
        let receipts = try ReceiptDataGenerator(scenario: scenario).write(to: directory, compress: true)
        return try SalesReportGenerator(seed: 3).write(to: directory, receipts: receipts)
    }

    func rows(_ path: String) throws -> [SalesReportRow] {
        let reader = LineReader(file: try DecodedFile(path: path), maxLineLength: 1 << 20)
        var parser = SalesReportParser()
        var rows: [SalesReportRow] = []
        while let event = try reader.next() {
            guard case .line(let number, let bytes) = event else { continue }
            switch parser.consume(line: bytes, number: number) {
            case .row(let row): rows.append(row)
            case .rejected(let issue): Issue.record("\(path): \(issue)")
            default: break
            }
        }
        #expect(parser.finish().isEmpty)
        return rows
    }

    @Test func writesAppleNamedMultiMemberReportsThatParseCleanly() throws {
        let directory = try TemporaryDirectory()
        let manifest = try generate(into: directory.path)
        // Ten UTC days of receipts touch eleven Pacific days.
        #expect(manifest.dailyFiles.count == 11)
        for file in manifest.dailyFiles + manifest.weeklyFiles {
            let name = try #require(ReportFileName(file))
            #expect(name.vendorNumber == manifest.vendorNumber)
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: directory.path + "/" + file)))
            // More than one gzip member: the header is a member of its own.
            let magic = zip(bytes, bytes.dropFirst()).filter { $0 == 0x1f && $1 == 0x8b }.count
            #expect(magic >= 2)
            #expect(try !rows(directory.path + "/" + file).isEmpty)
        }
    }

    @Test func weeklyReportsAreTheSumOfTheirDays() throws {
        let directory = try TemporaryDirectory()
        let manifest = try generate(into: directory.path)
        let weekly = try #require(manifest.weeklyFiles.first)
        let week = try rows(directory.path + "/" + weekly)
        let first = try #require(week.first?.beginDate)
        let last = try #require(week.first?.endDate)
        var daily: [String: Int] = [:]
        for file in manifest.dailyFiles {
            for row in try rows(directory.path + "/" + file) {
                guard let day = row.beginDate, day >= first, day <= last else { continue }
                daily[row.vendorIdentifier + " " + row.productTypeIdentifier, default: 0] += row.units
            }
        }
        var summed: [String: Int] = [:]
        for row in week { summed[row.vendorIdentifier + " " + row.productTypeIdentifier, default: 0] += row.units }
        #expect(summed.filter { $0.value != 0 } == daily.filter { $0.value != 0 })
    }

    @Test func theSameSeedWritesTheSameReports() throws {
        let one = try TemporaryDirectory()
        let two = try TemporaryDirectory()
        let first = try generate(into: one.path)
        #expect(try generate(into: two.path) == first)
        for file in first.dailyFiles {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: one.path + "/" + file))
                    == Data(contentsOf: URL(fileURLWithPath: two.path + "/" + file)))
        }
    }
}
