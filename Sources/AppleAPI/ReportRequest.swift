/// One report to ask App Store Connect for: the endpoint's filters, and the file name Apple's own tools give it.
public struct ReportRequest: Sendable, Hashable, CustomStringConvertible {
    /// Which endpoint: `/v1/salesReports` or `/v1/financeReports`.
    public enum Endpoint: String, Sendable, Hashable {
        case sales = "/v1/salesReports"
        case finance = "/v1/financeReports"
    }

    /// The endpoint.
    public let endpoint: Endpoint
    /// The `filter[…]` parameters, in a fixed order.
    public let filters: [(String, String)]
    /// The name Apple's Reporter and App Store Connect give the downloaded file, e.g. `S_D_85012345_20250101.txt.gz`.
    public let fileName: String

    public init(endpoint: Endpoint, filters: [(String, String)], fileName: String) {
        self.endpoint = endpoint
        self.filters = filters
        self.fileName = fileName
    }

    public var description: String { fileName }

    public static func == (lhs: ReportRequest, rhs: ReportRequest) -> Bool { lhs.fileName == rhs.fileName }
    public func hash(into hasher: inout Hasher) { hasher.combine(fileName) }
}

/// What App Store Connect answered for one report.
public enum ReportAnswer: Sendable, Equatable {
    /// The report: the gzip bytes exactly as Apple sent them.
    case report([UInt8])
    /// 404 saying there were no sales (or nothing to report) for the period: a report that will never exist.
    case noSales(String)
    /// 404 saying the report is not available yet: ask again later.
    case notPublished(String)
}

/// The App Store Connect API's report endpoints.
public struct AppStoreConnectClient: Sendable {
    let http: AppleHTTPClient

    public init(http: AppleHTTPClient) { self.http = http }

    /// Downloads one report. A 404 is an answer, not an error: Apple says "no sales" for a day nothing was sold and
    /// "not available yet" for a day it has not published.
    public func fetch(_ request: ReportRequest) async throws -> ReportAnswer {
        let response = try await http.get(
            request.endpoint.rawValue, query: request.filters.map { ("filter[\($0.0)]", $0.1) })
        switch response.status {
        case 200:
            guard response.body.count >= 2, response.body[0] == 0x1f, response.body[1] == 0x8b else {
                throw AppleAPIError.malformedResponse(
                    request: request.fileName, problem: "is not gzip (\(response.body.count) bytes)")
            }
            return .report(response.body)
        case 404:
            let detail = response.errorDetail
            return Self.meansNoSales(detail) ? .noSales(detail) : .notPublished(detail)
        default:
            throw AppleAPIError.unexpectedStatus(
                request: request.fileName, status: response.status, detail: response.errorDetail)
        }
    }

    /// Apple's 404 says "There were no sales for the date specified." for a period without sales, on the sales and
    /// the finance endpoint alike ("There are no …" and "no data" are accepted too, should the wording change); any
    /// other 404 (typically "Report is not available yet. Daily reports for the Americas are available by 5 am
    /// Pacific Time; …") is a report still to come.
    static func meansNoSales(_ detail: String) -> Bool {
        let text = detail.lowercased()
        return text.contains("no sales") || text.contains("no data") || text.contains("there were no")
            || text.contains("there are no")
    }
}
