package import AppStoreFormats
package import AppleAPI
internal import Foundation

/// A kind of report `[apple.connect] reports` may name, and how App Store Connect is asked for one period of it.
package enum ReportKind: String, Sendable, CaseIterable, Comparable {
    case salesDaily = "sales-daily"
    case salesWeekly = "sales-weekly"
    case salesMonthly = "sales-monthly"
    case salesYearly = "sales-yearly"
    case subscription
    case subscriptionEvent = "subscription-event"
    case subscriber
    case financial
    case financeDetail = "finance-detail"

    /// The version of Apple's report layout asked for: 1_0 for sales, 1_4 for the subscription reports (1_2 is no
    /// longer served).
    var version: String {
        switch self {
        case .subscription, .subscriptionEvent, .subscriber: "1_4"
        default: "1_0"
        }
    }

    package static func < (lhs: ReportKind, rhs: ReportKind) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }

    /// Every period of this kind that ends within `since...until`, oldest first: days, the Sundays ending weeks, the
    /// months, the years (financial: Apple's fiscal months, named by their calendar month).
    func periods(since: CalendarDate, until: CalendarDate) -> [ReportPeriod] {
        var periods: [ReportPeriod] = []
        switch self {
        case .salesDaily, .subscription, .subscriptionEvent, .subscriber:
            var day = since
            while day <= until {
                periods.append(.day(day))
                day = day.adding(days: 1)
            }
        case .salesWeekly:
            var day = since
            while day.weekday != 1 { day = day.adding(days: 1) }
            while day <= until {
                periods.append(.week(endingSunday: day))
                day = day.adding(days: 7)
            }
        case .salesMonthly, .financial, .financeDetail:
            var year = since.year
            var month = since.month
            while let first = CalendarDate(year: year, month: month, day: 1), first <= until {
                let next =
                    month == 12
                    ? CalendarDate(year: year + 1, month: 1, day: 1)
                    : CalendarDate(year: year, month: month + 1, day: 1)
                guard let next else { break }
                if next.adding(days: -1) <= until { periods.append(.month(year: year, month: month)) }
                (year, month) = (next.year, next.month)
            }
        case .salesYearly:
            for year in since.year...until.year {
                if let last = CalendarDate(year: year, month: 12, day: 31), last <= until {
                    periods.append(.year(year))
                }
            }
        }
        return periods
    }

    /// The request for one period: the endpoint, Apple's filters, and the file name App Store Connect gives it.
    func request(_ period: ReportPeriod, vendor: String) -> ReportRequest {
        func sales(_ type: String, _ subType: String, _ frequency: String, _ prefix: String) -> ReportRequest {
            ReportRequest(
                endpoint: .sales,
                filters: [
                    ("frequency", frequency), ("reportDate", period.reportDate), ("reportSubType", subType),
                    ("reportType", type), ("vendorNumber", vendor), ("version", version),
                ],
                fileName: "\(prefix)_\(vendor)_\(period.compactDate).txt.gz")
        }
        func finance(_ type: String, region: String) -> ReportRequest {
            ReportRequest(
                endpoint: .finance,
                filters: [
                    ("regionCode", region), ("reportDate", period.reportDate), ("reportType", type),
                    ("vendorNumber", vendor),
                ],
                fileName: "\(vendor)_\(period.fiscalName)_\(region).txt.gz")
        }
        switch self {
        case .salesDaily: return sales("SALES", "SUMMARY", "DAILY", "S_D")
        case .salesWeekly: return sales("SALES", "SUMMARY", "WEEKLY", "S_W")
        case .salesMonthly: return sales("SALES", "SUMMARY", "MONTHLY", "S_M")
        case .salesYearly: return sales("SALES", "SUMMARY", "YEARLY", "S_Y")
        case .subscription: return sales("SUBSCRIPTION", "SUMMARY", "DAILY", "Subscription")
        case .subscriptionEvent: return sales("SUBSCRIPTION_EVENT", "SUMMARY", "DAILY", "Subscription_Event")
        case .subscriber: return sales("SUBSCRIBER", "DETAILED", "DAILY", "Subscriber")
        // ZZ is the consolidated report of every region; the detailed report exists only as Z1.
        case .financial: return finance("FINANCIAL", region: "ZZ")
        case .financeDetail: return finance("FINANCE_DETAIL", region: "Z1")
        }
    }
}

/// One period a report covers.
package enum ReportPeriod: Sendable, Hashable {
    case day(CalendarDate)
    case week(endingSunday: CalendarDate)
    case month(year: Int, month: Int)
    case year(Int)

    /// Apple's `reportDate` filter: `YYYY-MM-DD`, `YYYY-MM` or `YYYY`.
    var reportDate: String {
        switch self {
        case .day(let date), .week(let date): date.description
        case .month(let year, let month): "\(year)-" + (month < 10 ? "0" : "") + "\(month)"
        case .year(let year): "\(year)"
        }
    }

    /// The date part of Apple's file names: `YYYYMMDD`, `YYYYMM` or `YYYY`.
    var compactDate: String { reportDate.replacingOccurrences(of: "-", with: "") }

    /// A financial file name's period: `MMYY`.
    var fiscalName: String {
        guard case .month(let year, let month) = self else { return compactDate }
        return (month < 10 ? "0" : "") + "\(month)" + String(String(year).suffix(2))
    }

    /// The last day the period covers.
    var lastDay: CalendarDate {
        switch self {
        case .day(let date), .week(let date): return date
        case .month(let year, let month):
            let next = month == 12 ? Self.day(year + 1, 1, 1) : Self.day(year, month + 1, 1)
            return next.adding(days: -1)
        case .year(let year): return Self.day(year, 12, 31)
        }
    }

    /// A day the periods' own arithmetic made, which exists.
    private static func day(_ year: Int, _ month: Int, _ day: Int) -> CalendarDate {
        guard let date = CalendarDate(year: year, month: month, day: day) else {
            preconditionFailure("\(year)-\(month)-\(day) does not exist")
        }
        return date
    }
}
