/// What an App Store Connect report's file name says about it: kind, vendor number and period.
///
/// Sales and Trends: `S_D_<vendor>_<YYYYMMDD>`, `S_W_<vendor>_<YYYYMMDD>` (the Sunday ending the week),
/// `S_M_<vendor>_<YYYYMM>`, `S_Y_<vendor>_<YYYY>`. Financial: `<vendor>_<MMYY>_<region>`, e.g.
/// `45545510_0914_CH` (fiscal September 2014, Switzerland). Extensions `.gz`, `.txt`, `.tsv`, `.csv` and any folder
/// are ignored.
package struct ReportFileName: Sendable, Equatable {
    /// Which family of report the name belongs to.
    package enum Kind: String, Sendable, Hashable {
        /// A Sales and Trends report (`S_…`).
        case sales
        /// A financial report (`<vendor>_<MMYY>_<region>`).
        case financial
    }

    /// How much time a sales report covers.
    package enum Frequency: String, Sendable, Hashable, Comparable {
        /// One day (`S_D_`).
        case daily
        /// Monday through Sunday (`S_W_`).
        case weekly
        /// One calendar month (`S_M_`).
        case monthly
        /// One calendar year (`S_Y_`).
        case yearly

        /// Finer frequencies first, so the finest present can be picked with `min()`.
        package static func < (lhs: Frequency, rhs: Frequency) -> Bool {
            lhs.rank < rhs.rank
        }

        private var rank: Int {
            switch self {
            case .daily: 0
            case .weekly: 1
            case .monthly: 2
            case .yearly: 3
            }
        }
    }

    /// Sales or financial.
    package let kind: Kind
    /// The vendor number, e.g. `85127269`.
    package let vendorNumber: String
    /// A sales report's frequency; `nil` for financial reports.
    package let frequency: Frequency?
    /// The calendar year (sales) or Apple fiscal year (financial; `14` in the name is 2014).
    package let year: Int
    /// The calendar month (monthly, weekly and daily sales) or fiscal month (financial); `nil` for yearly sales.
    package let month: Int?
    /// The day for daily sales, the Sunday ending the week for weekly sales; otherwise `nil`.
    package let day: Int?
    /// A financial report's region code, e.g. `CH`, `EU`, `WW`; `nil` for sales.
    package let region: String?

    /// Parses a file name or path; `nil` when the name follows neither convention (or names an impossible date, or
    /// a weekly date that is not a Sunday).
    package init?(_ fileName: String) {
        var name = Substring(fileName.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        let extensions = [".gz", ".txt", ".tsv", ".csv"]
        while let suffix = extensions.first(where: { name.lowercased().hasSuffix($0) }) {
            name = name.dropLast(suffix.count)
        }
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        if parts.count == 4, parts[0] == "S" {
            guard let parsed = ReportFileName.sales(frequencyCode: parts[1], vendor: parts[2], date: parts[3]) else {
                return nil
            }
            self = parsed
        } else if parts.count == 3 {
            guard let parsed = ReportFileName.financial(vendor: parts[0], period: parts[1], region: parts[2]) else {
                return nil
            }
            self = parsed
        } else {
            return nil
        }
    }

    private init(
        kind: Kind, vendorNumber: String, frequency: Frequency?, year: Int, month: Int?, day: Int?, region: String?
    ) {
        self.kind = kind
        self.vendorNumber = vendorNumber
        self.frequency = frequency
        self.year = year
        self.month = month
        self.day = day
        self.region = region
    }

    /// The days a sales report covers: one day, the week ending on its Sunday, the month or the year. `nil` for
    /// financial reports, whose fiscal months do not follow the calendar.
    package var coveredDays: ClosedRange<CalendarDate>? {
        guard let frequency else { return nil }
        switch frequency {
        case .daily:
            guard let month, let day, let date = CalendarDate(year: year, month: month, day: day) else { return nil }
            return date...date
        case .weekly:
            guard let month, let day, let sunday = CalendarDate(year: year, month: month, day: day) else { return nil }
            return sunday.adding(days: -6)...sunday
        case .monthly:
            guard let month, let first = CalendarDate(year: year, month: month, day: 1),
                let last = CalendarDate(year: year, month: month, day: CalendarDate.daysIn(month: month, year: year))
            else { return nil }
            return first...last
        case .yearly:
            guard let first = CalendarDate(year: year, month: 1, day: 1),
                let last = CalendarDate(year: year, month: 12, day: 31)
            else { return nil }
            return first...last
        }
    }

    private static func sales(frequencyCode: Substring, vendor: Substring, date: Substring) -> ReportFileName? {
        guard isDigits(vendor) else { return nil }
        let frequency: Frequency
        switch frequencyCode {
        case "D": frequency = .daily
        case "W": frequency = .weekly
        case "M": frequency = .monthly
        case "Y": frequency = .yearly
        default: return nil
        }
        let expectedLength = [Frequency.daily: 8, .weekly: 8, .monthly: 6, .yearly: 4][frequency] ?? 0
        guard date.utf8.count == expectedLength, isDigits(date), let year = Int(date.prefix(4)) else { return nil }
        let month = date.count >= 6 ? Int(date.dropFirst(4).prefix(2)) : nil
        let day = date.count == 8 ? Int(date.suffix(2)) : nil
        if let month {
            guard CalendarDate(year: year, month: month, day: day ?? 1) != nil else { return nil }
        }
        if frequency == .weekly, let month, let day {
            guard CalendarDate(year: year, month: month, day: day)?.weekday == 1 else { return nil }
        }
        return ReportFileName(
            kind: .sales, vendorNumber: String(vendor), frequency: frequency, year: year, month: month, day: day,
            region: nil
        )
    }

    private static func financial(vendor: Substring, period: Substring, region: Substring) -> ReportFileName? {
        guard isDigits(vendor), period.utf8.count == 4, isDigits(period),
            let month = Int(period.prefix(2)), (1...12).contains(month), let shortYear = Int(period.suffix(2)),
            (2...3).contains(region.utf8.count),
            region.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) })
        else { return nil }
        return ReportFileName(
            kind: .financial, vendorNumber: String(vendor), frequency: nil, year: 2000 + shortYear, month: month,
            day: nil, region: String(region)
        )
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
