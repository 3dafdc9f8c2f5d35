/// One data row of a sales, financial or subscription report: the canonical fields reconciliation needs, plus every
/// column verbatim.
///
/// Canonical text fields are trimmed, and blank values (`" "` or empty) are `nil`. For sales and financial rows,
/// `vendorIdentifier`, `productTypeIdentifier`, `units`, `beginDate` and `endDate` are always present; other
/// layouts fill what they have (a Subscription Event row's `beginDate` and `endDate` are its Event Date, a
/// Payments summary row has only `columns`).
public struct SalesReportRow: Sendable, Equatable {
    /// The 1-based line number in the file.
    public let line: Int
    /// `SKU` or `Vendor Identifier`: the app's SKU, or the product id of an in-app purchase. Empty where the layout
    /// has none.
    public let vendorIdentifier: String
    /// The raw Product Type Identifier, e.g. `IA1`; empty where the layout has none.
    public let productTypeIdentifier: String
    /// The classification of `productTypeIdentifier`.
    public let productType: ReportProductType
    /// `Units` (financial: `Quantity`); negative for refunds and returns; 0 where the layout has no unit column.
    public let units: Int
    /// Proceeds per unit: `Developer Proceeds`, `Royalty Price` or `Partner Share` (positive on refunds too).
    public let proceedsPerUnit: ReportDecimal?
    /// A financial row's `Extended Partner Share` (negative on returns).
    public let extendedProceeds: ReportDecimal?
    /// `Currency of Proceeds`, `Royalty Currency`, `Partner Share Currency` or `Proceeds Currency`.
    public let proceedsCurrency: String?
    /// `Customer Price` (negative on refunds).
    public let customerPrice: ReportDecimal?
    /// `Customer Currency`.
    public let customerCurrency: String?
    /// `Country Code`, `Country Of Sale` or `Country`.
    public let countryCode: String?
    /// `Begin Date`, `Start Date` or `Event Date`.
    public let beginDate: CalendarDate?
    /// `End Date` (the Event Date again for subscription event and subscriber rows).
    public let endDate: CalendarDate?
    /// `Apple Identifier` (subscription reports: `Subscription Apple ID`).
    public let appleIdentifier: String?
    /// `Parent Identifier`: the parent app of an in-app purchase (subscription reports: `App Apple ID`).
    public let parentIdentifier: String?
    /// `Title` / `Title / Episode / Season` (subscription reports: `Subscription Name`), UTF-8 as written.
    public let title: String?
    /// `Subscription` (`New`, `Renewal`).
    public let subscription: String?
    /// `Period` (`7 Days`, `1 Month`, `1 Year`).
    public let period: String?
    /// A financial row's `Sales or Return`: `S` or `R`.
    public let salesOrReturn: String?
    /// `Promo Code`.
    public let promoCode: String?
    /// `Order Type` (e.g. `Pay As You Go Intro Offer`).
    public let orderType: String?
    /// `Proceeds Reason`.
    public let proceedsReason: String?
    /// `Preserved Pricing` (`Yes`).
    public let preservedPricing: String?
    /// `Device`.
    public let device: String?
    /// `Category`.
    public let category: String?
    /// Every column by header name, in header order, including ones this parser does not know, values verbatim.
    public let columns: ReportColumns

    /// True for a financial return (`Sales or Return` is `R`).
    public var isReturn: Bool { salesOrReturn == "R" }

    init(
        line: Int, vendorIdentifier: String = "", productTypeIdentifier: String = "", units: Int = 0,
        proceedsPerUnit: ReportDecimal? = nil, extendedProceeds: ReportDecimal? = nil, proceedsCurrency: String? = nil,
        customerPrice: ReportDecimal? = nil, customerCurrency: String? = nil, countryCode: String? = nil,
        beginDate: CalendarDate? = nil, endDate: CalendarDate? = nil, appleIdentifier: String? = nil,
        parentIdentifier: String? = nil, title: String? = nil, subscription: String? = nil, period: String? = nil,
        salesOrReturn: String? = nil, promoCode: String? = nil, orderType: String? = nil,
        proceedsReason: String? = nil, preservedPricing: String? = nil, device: String? = nil,
        category: String? = nil, columns: ReportColumns
    ) {
        self.line = line
        self.vendorIdentifier = vendorIdentifier
        self.productTypeIdentifier = productTypeIdentifier
        self.productType = ReportProductType(code: productTypeIdentifier)
        self.units = units
        self.proceedsPerUnit = proceedsPerUnit
        self.extendedProceeds = extendedProceeds
        self.proceedsCurrency = proceedsCurrency
        self.customerPrice = customerPrice
        self.customerCurrency = customerCurrency
        self.countryCode = countryCode
        self.beginDate = beginDate
        self.endDate = endDate
        self.appleIdentifier = appleIdentifier
        self.parentIdentifier = parentIdentifier
        self.title = title
        self.subscription = subscription
        self.period = period
        self.salesOrReturn = salesOrReturn
        self.promoCode = promoCode
        self.orderType = orderType
        self.proceedsReason = proceedsReason
        self.preservedPricing = preservedPricing
        self.device = device
        self.category = category
        self.columns = columns
    }
}
