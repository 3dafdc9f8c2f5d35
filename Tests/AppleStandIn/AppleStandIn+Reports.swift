internal import Foundation
internal import Synchronization

/// `GET /v1/salesReports` and `GET /v1/financeReports` as Apple's documentation defines them.
extension AppleStandIn {
    /// The sales report types Apple serves, with the sub-type, frequencies and versions each takes, and the prefix of
    /// its file name.
    static let salesTypes:
        [String: (subType: String, frequencies: Set<String>, versions: Set<String>, prefix: String)] =
            [
                "SALES": ("SUMMARY", ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"], ["1_0"], "S"),
                "SUBSCRIPTION": ("SUMMARY", ["DAILY"], ["1_3", "1_4"], "Subscription"),
                "SUBSCRIPTION_EVENT": ("SUMMARY", ["DAILY"], ["1_3", "1_4"], "Subscription_Event"),
                "SUBSCRIBER": ("DETAILED", ["DAILY"], ["1_3", "1_4"], "Subscriber"),
            ]

    func reportResponse(path: String, filters: [String: String]) -> StandInResponse {
        func invalid(_ detail: String) -> StandInResponse {
            .connectError(
                400, code: "PARAMETER_ERROR.INVALID", title: "A parameter has an invalid value", detail: detail)
        }
        guard filters["filter[vendorNumber]"] == vendorNumber else {
            return invalid("'\(filters["filter[vendorNumber]"] ?? "")' is not a valid vendor number for this account")
        }
        guard let reportDate = filters["filter[reportDate]"] else { return invalid("filter[reportDate] is required") }
        let fileName: String
        let lastDay: String?
        if path == "/v1/salesReports" {
            guard let type = filters["filter[reportType]"], let rules = Self.salesTypes[type],
                filters["filter[reportSubType]"] == rules.subType,
                let frequency = filters["filter[frequency]"], rules.frequencies.contains(frequency),
                let version = filters["filter[version]"], rules.versions.contains(version)
            else { return invalid("the combination of reportType, reportSubType, frequency and version is not valid") }
            lastDay = Self.lastDay(reportDate, frequency: frequency)
            let compact = reportDate.replacingOccurrences(of: "-", with: "")
            fileName =
                type == "SALES"
                ? "S_\(frequency.prefix(1))_\(vendorNumber)_\(compact).txt.gz"
                : "\(rules.prefix)_\(vendorNumber)_\(compact).txt.gz"
        } else {
            guard let type = filters["filter[reportType]"], let region = filters["filter[regionCode]"],
                type == "FINANCIAL" || (type == "FINANCE_DETAIL" && region == "Z1")
            else { return invalid("the combination of reportType and regionCode is not valid") }
            lastDay = Self.lastDay(reportDate, frequency: "MONTHLY")
            let parts = reportDate.split(separator: "-")
            guard parts.count == 2 else { return invalid("reportDate must be YYYY-MM") }
            fileName = "\(vendorNumber)_\(parts[1])\(parts[0].suffix(2))_\(region).txt.gz"
        }
        guard let lastDay else { return invalid("'\(reportDate)' is not a valid date for this frequency") }
        let (bytes, publishedThrough) = state.withLock { ($0.reports[fileName], $0.publishedThrough) }
        guard lastDay <= publishedThrough else {
            return .connectError(
                404, code: "NOT_FOUND", title: "The specified resource does not exist",
                detail: "Report is not available yet. Daily reports for the Americas are available by 5 am Pacific "
                    + "Time; Japan, Australia, and New Zealand by 5 am Japan Standard Time; and 5 am Central European "
                    + "Time for all other territories.")
        }
        if let bytes {
            return StandInResponse(status: 200, headers: [("Content-Type", "application/a-gzip")], body: bytes)
        }
        // The finance endpoint says it in the same words as the sales one, for FINANCIAL and FINANCE_DETAIL alike
        // (Apple Developer Forums thread 702418; Ponytech/appstoreconnectapi issue 17).
        return .connectError(
            404, code: "NOT_FOUND", title: "The specified resource does not exist",
            detail: "There were no sales for the date specified.")
    }

    /// The last day (`YYYY-MM-DD`) of the period `reportDate` names, or nil when it is not of the frequency's form.
    static func lastDay(_ reportDate: String, frequency: String) -> String? {
        let parts = reportDate.split(separator: "-").map { Int($0) }
        guard parts.allSatisfy({ $0 != nil }) else { return nil }
        let numbers = parts.compactMap { $0 }
        func text(_ year: Int, _ month: Int, _ day: Int) -> String {
            String(format: "%04d-%02d-%02d", year, month, day)
        }
        switch (frequency, numbers.count) {
        case ("DAILY", 3), ("WEEKLY", 3):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            guard
                let date = calendar.date(from: DateComponents(year: numbers[0], month: numbers[1], day: numbers[2])),
                calendar.component(.day, from: date) == numbers[2]
            else { return nil }
            if frequency == "WEEKLY" && calendar.component(.weekday, from: date) != 1 { return nil }
            return text(numbers[0], numbers[1], numbers[2])
        case ("MONTHLY", 2):
            guard (1...12).contains(numbers[1]) else { return nil }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            guard let date = calendar.date(from: DateComponents(year: numbers[0], month: numbers[1], day: 1)) else {
                return nil
            }
            let days = calendar.range(of: .day, in: .month, for: date)?.count ?? 28
            return text(numbers[0], numbers[1], days)
        case ("YEARLY", 1): return text(numbers[0], 12, 31)
        default: return nil
        }
    }
}
