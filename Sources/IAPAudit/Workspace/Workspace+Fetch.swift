internal import AppStoreFormats
internal import AppleAPI
internal import Foundation
internal import Logging
internal import Postgres

/// The work of `FetchStage` (`iap-audit fetch`, and the first stage of `run` when an `[apple.*]` section is
/// configured; docs/fetching.md).
extension Workspace {
    /// Fetches what the spool lacks (the work of `FetchStage`). A failure of Apple's (or of a key) ends the fetch but
    /// is not thrown: it is the summary's `failure`, so a run goes on to audit what it has. Database errors are thrown.
    func fetch(_ plan: FetchPlan, runID: Int64?, stop: StopRequest) throws -> FetchSummary {
        let started = Date()
        var summary = FetchSummary()
        summary.isDryRun = plan.isDryRun
        defer {
            logger.info(
                "fetch finished",
                metadata: [
                    "requests": "\(summary.requestStatistics.requests)", "bytes": "\(summary.requestStatistics.bytes)",
                ])
        }
        if let reports = plan.reports {
            try fetchReports(reports, plan: plan, runID: runID, stop: stop, into: &summary)
        }
        // The Server API uses another key: a failure of the reports does not keep the notifications from coming.
        if let server = plan.server {
            try fetchNotifications(server, plan: plan, runID: runID, stop: stop, into: &summary)
        }
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    private func fetchReports(
        _ reports: FetchPlan.ReportsPlan, plan: FetchPlan, runID: Int64?, stop: StopRequest,
        into summary: inout FetchSummary
    ) throws {
        let folder = plan.reportsFolder
        let held = Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        // A day Apple said had no sales is asked again for a week after it ended (a late report), then no more.
        let settled = try connection.query(
            "SELECT file_name FROM apple_report_fetch WHERE outcome = 'no_sales' AND last_day < $1::date - 7",
            [reports.until.description], context: "read the report periods Apple has no report for")
        let noSalesFinal = Set(try settled.allRows.map { row in try row.decode(String.self, "file_name") })
        var wanted: [(ReportKind, ReportPeriod, ReportRequest)] = []
        for kind in reports.kinds {
            for period in kind.periods(since: reports.since, until: reports.until) {
                let request = kind.request(period, vendor: reports.vendorNumber)
                if held.contains(request.fileName) || noSalesFinal.contains(request.fileName) {
                    summary.reports[kind.rawValue, default: .init()].held += 1
                } else {
                    wanted.append((kind, period, request))
                }
            }
        }
        guard !plan.isDryRun else {
            for (kind, _, _) in wanted { summary.reports[kind.rawValue, default: .init()].pending += 1 }
            return
        }
        guard !wanted.isEmpty else { return }
        try SpoolWriter.prepare(folder)
        SpoolWriter.removePartials(in: folder)
        let http: AppleHTTPClient
        do {
            http = try AppleHTTPClient(
                baseURL: reports.url, service: .appStoreConnect, tokens: TokenIssuer(key: reports.key),
                policy: plan.policy, concurrency: plan.concurrency, shouldStop: { stop.signal != nil })
        } catch {
            throw IAPAuditError.apple(error)
        }
        let fetcher = ReportFetcher(
            client: AppStoreConnectClient(http: http), folder: folder, concurrency: plan.concurrency)
        let requests = wanted.map(\.2)
        let onProgress = onProgress
        let total = requests.count
        let (outcomes, failure) = waitForAsync {
            let result = await fetcher.fetch(requests, stop: stop) { done, name in
                onProgress?(Progress(stage: "fetch", filesDone: done, filesTotal: total, records: 0, lastFile: name))
            }
            await http.shutdown()
            return (result.outcomes, result.failure.map(UncheckedFailure.init))
        }
        count(http, into: &summary)
        var names: [String] = []
        var kinds: [String] = []
        var lastDays: [String] = []
        var answers: [String] = []
        var sizes: [String?] = []
        for (kind, period, request) in wanted {
            guard let outcome = outcomes[request] else {
                summary.reports[kind.rawValue, default: .init()].pending += 1
                continue
            }
            names.append(request.fileName)
            kinds.append(kind.rawValue)
            lastDays.append(period.lastDay.description)
            switch outcome {
            case .stored(let bytes):
                summary.reports[kind.rawValue, default: .init()].fetched += 1
                summary.reports[kind.rawValue, default: .init()].bytes += bytes
                answers.append("stored")
                sizes.append("\(bytes)")
            case .noSales:
                summary.reports[kind.rawValue, default: .init()].noSales += 1
                answers.append("no_sales")
                sizes.append(nil)
            case .notPublished:
                summary.reports[kind.rawValue, default: .init()].notPublished += 1
                summary.notPublished.append(request.fileName)
                answers.append("not_published")
                sizes.append(nil)
            }
        }
        if !names.isEmpty {
            try connection.query(
                SQLQuery.reportFetchRecord.text,
                [names, kinds, lastDays, answers, PostgresTextArray(sizes), runID.map { Int($0) }],
                context: "record what App Store Connect answered")
        }
        if let failure = failure?.error { try recordFetchFailure(failure, into: &summary) }
    }

    /// Adds what `http`'s requests cost to the summary.
    func count(_ http: AppleHTTPClient, into summary: inout FetchSummary) {
        summary.requestStatistics += http.statistics
    }

    /// Records the failure that ended a part of the fetch (the first one decides the exit code); a stop request is
    /// thrown, to end the run as interrupted.
    func recordFetchFailure(_ failure: any Error, into summary: inout FetchSummary) throws {
        let wrapped =
            IAPAuditError.wrapping(failure) ?? .apple(.malformedResponse(request: "a request", problem: "\(failure)"))
        if case .interrupted = wrapped { throw wrapped }
        logger.error("fetch failed; what is already stored is audited", metadata: ["error": "\(wrapped)"])
        guard summary.failure == nil else { return }
        summary.failure = "\(wrapped)"
        summary.exitCode = wrapped.exitCode
    }
}

/// An error carried out of the async world (errors are not all `Sendable`-checked values).
struct UncheckedFailure: @unchecked Sendable {
    let error: any Error
}
