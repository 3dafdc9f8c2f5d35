internal import CivilCalendar

/// An x axis of days: used when every category is a `YYYY-MM-DD` day, so 2014-03-21 does not stand next to
/// 2025-03-04 as if they were neighbours.
///
/// Days are placed by date. A stretch of more than `longestGap` days without data is cut out of the axis and shown as
/// a break (and said in a note), so eleven empty years do not squeeze the days that have data into slivers.
struct ChartTimeAxis {
    /// A tick under the axis: its x and its label.
    struct Tick: Equatable {
        var x: Double
        var label: String
    }

    /// The runs of days drawn, each from its first to its last day with data (inclusive), oldest first.
    let segments: [(first: Int, last: Int)]

    /// Gaps longer than this many days are cut out of the axis.
    static let longestGap = 31

    /// The pixels a cut-out gap takes.
    static let breakWidth = 28.0

    /// The axis for `categories`, or nil unless every one is a valid `YYYY-MM-DD` day.
    init?(categories: [String]) {
        var days: [Int] = []
        for category in categories {
            guard let day = Self.dayNumber(category) else { return nil }
            days.append(day)
        }
        days.sort()
        guard let first = days.first else { return nil }
        var segments = [(first: first, last: first)]
        for day in days.dropFirst() {
            if day - segments[segments.count - 1].last > Self.longestGap {
                segments.append((day, day))
            } else {
                segments[segments.count - 1].last = day
            }
        }
        self.segments = segments
    }

    /// The days drawn, gaps cut out.
    var drawnDays: Int { segments.reduce(0) { $0 + $1.last - $1.first + 1 } }

    /// Where each day and tick goes on a plot `width` wide starting at `left`.
    struct Layout {
        /// The width of one day.
        var dayWidth: Double
        /// Each segment's left edge.
        var starts: [Double]
        /// The x of each break, between segments.
        var breaks: [Double]
    }

    func layout(left: Double, width: Double) -> Layout {
        let breakTotal = Self.breakWidth * Double(segments.count - 1)
        let dayWidth = max(width - breakTotal, 1) / Double(max(drawnDays, 1))
        var starts: [Double] = []
        var breaks: [Double] = []
        var x = left
        for (index, segment) in segments.enumerated() {
            if index > 0 {
                breaks.append(x + Self.breakWidth / 2)
                x += Self.breakWidth
            }
            starts.append(x)
            x += Double(segment.last - segment.first + 1) * dayWidth
        }
        return Layout(dayWidth: dayWidth, starts: starts, breaks: breaks)
    }

    /// The centre of `day`'s band.
    func x(_ day: Int, in layout: Layout) -> Double {
        let index = segments.lastIndex { $0.first <= day } ?? 0
        return layout.starts[index] + (Double(day - segments[index].first) + 0.5) * layout.dayWidth
    }

    /// The gaps cut out, as `2014-03-21 and 2025-03-04` pairs of the days on either side.
    var cutGaps: [(before: String, after: String)] {
        zip(segments, segments.dropFirst()).map { (Self.text($0.last, .day), Self.text($1.first, .day)) }
    }

    /// Ticks at whole days, weeks, months or years in each segment, about one per `spacing` pixels.
    func ticks(in layout: Layout, spacing: Double) -> [Tick] {
        var ticks: [Tick] = []
        for (index, segment) in segments.enumerated() {
            let width = Double(segment.last - segment.first + 1) * layout.dayWidth
            let limit = max(Int(width / spacing), 1)
            for (day, precision) in Self.ticks(from: segment.first, to: segment.last, maximum: limit) {
                let offset = precision == .day ? 0.5 : 0
                ticks.append(
                    Tick(
                        x: layout.starts[index] + (Double(day - segment.first) + offset) * layout.dayWidth,
                        label: Self.text(day, precision)))
            }
        }
        return ticks
    }

    /// Tick days between `first` and `last` at whole days, weeks, months or years, fewer than `maximum` (at least
    /// the first day).
    static func ticks(from first: Int, to last: Int, maximum: Int) -> [(Int, Precision)] {
        let limit = max(maximum, 1)
        let span = last - first + 1
        for step in [1, 2, 7, 14] where (span + step - 1) / step <= limit {
            return stride(from: first, through: last, by: step).map { ($0, .day) }
        }
        let (firstYear, firstMonth, _) = CalendarMath.civilFromDays(first)
        let (lastYear, lastMonth, _) = CalendarMath.civilFromDays(last)
        let months = (lastYear - firstYear) * 12 + lastMonth - firstMonth + 1
        for step in [1, 3, 6] where (months + step - 1) / step <= limit {
            var ticks: [(Int, Precision)] = []
            var index = firstYear * 12 + firstMonth - 1
            index += (step - index % step) % step
            while true {
                let day = CalendarMath.daysFromCivil(year: index / 12, month: index % 12 + 1, day: 1)
                if day > last { break }
                if day >= first { ticks.append((day, .month)) }
                index += step
            }
            return ticks.isEmpty ? [(first, .day)] : ticks
        }
        let years = lastYear - firstYear + 1
        let step = [1, 2, 5, 10, 20, 50, 100].first { (years + $0 - 1) / $0 <= limit } ?? 100
        var ticks: [(Int, Precision)] = []
        var year = firstYear + (step - firstYear % step) % step
        while year <= lastYear {
            let day = CalendarMath.daysFromCivil(year: year, month: 1, day: 1)
            if day >= first { ticks.append((day, .year)) }
            year += step
        }
        return ticks.isEmpty ? [(first, .day)] : ticks
    }

    enum Precision {
        case day
        case month
        case year
    }

    /// `2014-03-05`, `2014-03` or `2014`.
    static func text(_ day: Int, _ precision: Precision) -> String {
        let (year, month, dayOfMonth) = CalendarMath.civilFromDays(day)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - "\(year)".count)) + "\(year)"
        switch precision {
        case .day: return "\(yearText)-\(two(month))-\(two(dayOfMonth))"
        case .month: return "\(yearText)-\(two(month))"
        case .year: return yearText
        }
    }

    /// Days since 1970-01-01 of a `YYYY-MM-DD` text, or nil for anything else (including 2014-02-30).
    static func dayNumber(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month),
            day >= 1
        else { return nil }
        let result = CalendarMath.daysFromCivil(year: year, month: month, day: day)
        guard CalendarMath.civilFromDays(result) == (year, month, day) else { return nil }
        return result
    }
}
