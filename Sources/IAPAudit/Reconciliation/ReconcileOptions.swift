package import AppStoreFormats

/// What `reconcile` compares: a window of days and the zone that decides which day a purchase falls on.
package struct ReconcileOptions: Sendable, Equatable {
    /// Apple's reports for worldwide agreements are in Pacific time.
    package static let defaultTimeZone = "America/Los_Angeles"

    /// The first day of the window; nil means the first day any stored report covers.
    package var from: CalendarDate?
    /// The last day of the window (inclusive); nil means the last day any stored report covers.
    package var to: CalendarDate?
    /// The IANA zone of the reports' days.
    package var timeZone: String
    /// Without a window, reconcile only the days that changed since the last reconcile (what `run` does) instead of
    /// every day. A first reconcile, or a changed time zone or catalog, still covers every day.
    package var isIncremental: Bool

    /// The day `text` names in the strict `YYYY-MM-DD` form `--from` and `--to` take, or nil.
    package static func day(_ text: String) -> CalendarDate? {
        text.count == 10 ? CalendarDate(text) : nil
    }

    /// Creates options; nil days default to the span of the stored reports.
    package init(
        from: CalendarDate? = nil, to: CalendarDate? = nil, timeZone: String = ReconcileOptions.defaultTimeZone,
        isIncremental: Bool = false
    ) {
        self.from = from
        self.to = to
        self.timeZone = timeZone
        self.isIncremental = isIncremental
    }
}
