/// Which report a file holds, recognised from its header names (never from column positions).
package enum ReportLayout: Sendable, Hashable, CustomStringConvertible {
    /// Sales and Trends, 2009 layout: 27 columns keyed by `Vendor Identifier`, `Royalty Price`, `Royalty Currency`.
    case sales27
    /// Sales and Trends since September 2010, keyed by `SKU`; `columnCount` is one of `knownSalesColumnCounts` in
    /// files seen so far, and is recorded exactly whatever it is.
    case sales(columnCount: Int)
    /// A financial report (`Start Date`, `Vendor Identifier`, `Quantity`, `Partner Share`, …, `Total_*` trailer).
    case financial
    /// The detailed financial report of every region (`FINANCE_DETAIL`, region `Z1`): a financial report's columns
    /// with each purchase's `Transaction Date` and `Settlement Date` in place of the fiscal period's Start and End.
    case financeDetail
    /// A Subscription report (active subscription counts per offer; no dates).
    case subscription
    /// A Subscription Event report (`Event Date`, `Event`, …, `Quantity`).
    case subscriptionEvent
    /// A Subscriber report (`Event Date`, …, `Subscriber ID`, …, `Units`).
    case subscriber
    /// The comma-separated "Payments and Financial Reports" summary (`financial_report.csv`).
    case paymentsSummary
    /// A header this parser does not recognise; the file's rows are not parsed.
    case unknown

    /// The column counts of the SKU layouts Apple has shipped, with what each added.
    package static let knownSalesColumnCounts: [Int: String] = [
        18: "SKU layout of September 2010",
        20: "+Subscription, Period",
        21: "+Category",
        22: "+CMB",
        24: "+Device, Supported Platforms",
        27: "+Proceeds Reason, Preserved Pricing, Client (2017, before Order Type)",
        28: "+Proceeds Reason, Preserved Pricing, Client, Order Type",
    ]

    /// A stable short name for storage and messages, e.g. `sales-22` or `subscription-event`.
    package var name: String {
        switch self {
        case .sales27: "sales-27"
        case .sales(let columnCount): "sales-\(columnCount)"
        case .financial: "financial"
        case .financeDetail: "finance-detail"
        case .subscription: "subscription"
        case .subscriptionEvent: "subscription-event"
        case .subscriber: "subscriber"
        case .paymentsSummary: "payments-summary"
        case .unknown: "unknown"
        }
    }

    /// The short name.
    package var description: String { name }

    /// True for Sales and Trends layouts (27-column or SKU).
    package var isSales: Bool {
        switch self {
        case .sales27, .sales: true
        default: false
        }
    }

    /// True where every row must carry a vendor identifier, product type, units and begin/end dates.
    var requiresSaleKeys: Bool { isSales || self == .financial || self == .financeDetail }

    /// True for the layouts that may end with `Total_Rows`, `Total_Units` and `Total_Amount` lines.
    var hasTotals: Bool { self == .financial || self == .financeDetail }
}
