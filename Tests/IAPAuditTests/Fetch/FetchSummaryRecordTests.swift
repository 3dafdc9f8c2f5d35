import AppleAPI
import Foundation
import Testing

@testable import IAPAudit

/// The fetch's entry in a run's stored record: its keys are what `runs` queries and dashboards read, so the text is
/// held here byte for byte.
struct FetchSummaryRecordTests {
    @Test func theStoredRecordKeepsItsFlatKeys() throws {
        var summary = FetchSummary()
        summary.reports["sales-daily"] = FetchSummary.ReportCounts()
        summary.reports["sales-daily"]?.fetched = 2
        summary.reports["sales-daily"]?.bytes = 300
        summary.notPublished = ["S_D_1_20260301.txt.gz"]
        summary.requestStatistics.requests = 7
        summary.requestStatistics.retries = 2
        summary.requestStatistics.rateLimited = 1
        summary.requestStatistics.bytes = 512
        summary.seconds = 1.5
        summary.requestStatistics.networkSeconds = 0.25
        summary.requestStatistics.backoffSeconds = 0.5
        summary.failure = "stopped"
        summary.exitCode = 76
        let json = String(decoding: try JSONEncoder.sorted.encode(summary), as: UTF8.self)
        #expect(
            json
                == #"{"backoffSeconds":0.5,"bytes":512,"exitCode":76,"failure":"stopped","isDryRun":false,"#
                + #""networkSeconds":0.25,"notPublished":["S_D_1_20260301.txt.gz"],"rateLimited":1,"#
                + #""reports":{"sales-daily":{"bytes":300,"fetched":2,"held":0,"noSales":0,"notPublished":0,"#
                + #""pending":0}},"requests":7,"retries":2,"seconds":1.5}"#)
    }
}
